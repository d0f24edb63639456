// What every part of the register response sees: the request's options, the viewer, and data
// loaded once and shared between parts (each loader runs at most one batch of queries, however
// many parts ask for it).
import type { Db } from '../../../prisma/database.ts';
import type { Realm, Subscription, User } from '../../../prisma/generated/client/client.ts';
import type { Context } from '../../../schema/context.ts';
import type { Config } from '../../../server/config.ts';
import { isGuest } from '../../users/roles.ts';
import { GroupIndex } from '../../groups/group-index.ts';
import { topicForClient } from '../../messages/topics.ts';

/**
 * The register parameters that shape the initial data. `applyMarkdown`, `narrow` and
 * `allPublicStreams` only shape later events (as in Zulip) and are accepted here for symmetry.
 * Capabilities absent from `capabilities` count as false; `user_settings_object` has no effect
 * (the legacy top-level settings of `update_display_settings` / `update_global_notifications` are
 * gone at Parley's feature level), and `bulk_message_deletion`, `stream_typing_notifications` and
 * `individual_emoji_changes` concern events only.
 */
export interface InitialStateOptions {
  /** Fetch types wanted; null = all. */
  fetchEventTypes: string[] | null;
  applyMarkdown: boolean;
  /** Users whose gravatar the client may compute get `avatar_url: null` (never for spectators). */
  clientGravatar: boolean;
  includeSubscribers: 'true' | 'false' | 'partial';
  slimPresence: boolean;
  presenceHistoryLimitDays: number;
  capabilities: Record<string, boolean>;
  narrow: [string, string][];
  allPublicStreams: boolean;
}

export type Json = Record<string, unknown>;

/** The realm's users, minus credentials: what user records, presence and access rules need. */
export const USER_COLUMNS = {
  id: true, realmId: true, email: true, deliveryEmail: true, fullName: true, role: true, isActive: true,
  isBot: true, botType: true, botOwnerId: true, dateJoined: true, timezone: true, avatarSource: true,
  avatarVersion: true, avatarKey: true, settings: true, lastActivity: true,
} as const;

export type UserRow = Pick<User, keyof typeof USER_COLUMNS>;

export class InitialState {
  readonly db: Db;
  readonly realm: Realm;
  readonly config: Config;
  private readonly wanted: Set<string> | null;
  private readonly cache = new Map<string, Promise<unknown>>();

  constructor(readonly ctx: Context, readonly user: User | null, readonly options: InitialStateOptions) {
    this.db = ctx.db;
    this.realm = ctx.realm;
    this.config = ctx.config;
    this.wanted = options.fetchEventTypes === null ? null : new Set(options.fetchEventTypes);
  }

  want(type: string): boolean {
    return this.wanted === null || this.wanted.has(type);
  }

  capability(name: string): boolean {
    return this.options.capabilities[name] === true;
  }

  /** The empty topic as this client shows it: "" with `empty_topic_name`, else the realm's display name. */
  topicName(topic: string): string {
    return topicForClient(topic, this.realm.emptyTopicDisplayName, this.capability('empty_topic_name'));
  }

  /** Runs `load` once per key and shares the result. */
  memo<T>(key: string, load: () => Promise<T>): Promise<T> {
    let promise = this.cache.get(key) as Promise<T> | undefined;
    if (!promise) {
      promise = load();
      this.cache.set(key, promise);
    }
    return promise;
  }

  /**
   * The realm's groups and the group-setting values built from them. All memberships are loaded
   * when the response lists groups; otherwise only those of anonymous groups and of the viewer.
   */
  groups(): Promise<GroupIndex> {
    const allMembers = this.want('realm_user_groups');
    return this.memo('groups', () => GroupIndex.load(this.db, this.realm.id, { allMembers, viewerId: this.user?.id ?? null }));
  }

  /** IDs of the groups the viewer belongs to, directly or through subgroups (empty for spectators). */
  async viewerGroupIds(): Promise<Set<number>> {
    if (!this.user) return new Set();
    return (await this.groups()).groupsOfUser(this.user.id);
  }

  async viewerHasPermission(groupId: number | null): Promise<boolean> {
    if (groupId == null) return false;
    return (await this.viewerGroupIds()).has(groupId);
  }

  /** Every user of the realm (active or not), by ID. */
  users(): Promise<Map<number, UserRow>> {
    return this.memo('users', async () => {
      const rows = await this.db.user.findMany({ where: { realmId: this.realm.id }, select: USER_COLUMNS, orderBy: { id: 'asc' } });
      return new Map(rows.map((u) => [u.id, u]));
    });
  }

  /** The viewer's subscription rows (active and former), by channel ID. */
  viewerSubscriptions(): Promise<Map<number, Subscription>> {
    return this.memo('viewerSubscriptions', async () => {
      if (!this.user) return new Map<number, Subscription>();
      const rows = await this.db.subscription.findMany({ where: { userId: this.user.id } });
      return new Map(rows.map((s) => [s.channelId, s]));
    });
  }

  /**
   * The users the viewer may see, or null when they may see everyone. Only guests outside the
   * realm's can_access_all_users_group are limited: to themselves, bots, and the people they share
   * a channel subscription or a direct-message conversation with.
   */
  accessibleUserIds(): Promise<Set<number> | null> {
    return this.memo('accessibleUserIds', async () => {
      const viewer = this.user;
      if (!viewer || !isGuest(viewer)) return null;
      if (await this.viewerHasPermission(this.realm.canAccessAllUsersGroupId)) return null;
      const channelIds = [...(await this.viewerSubscriptions()).values()].filter((s) => s.active).map((s) => s.channelId);
      const [coSubscribers, coParticipants, bots] = await Promise.all([
        channelIds.length
          ? this.db.subscription.findMany({
              where: { channelId: { in: channelIds }, active: true, isUserActive: true },
              select: { userId: true },
              distinct: ['userId'],
            })
          : Promise.resolve([]),
        this.db.directConversationMember.findMany({
          where: { conversation: { realmId: this.realm.id, members: { some: { userId: viewer.id } } } },
          select: { userId: true },
          distinct: ['userId'],
        }),
        this.db.user.findMany({ where: { realmId: this.realm.id, isBot: true }, select: { id: true } }),
      ]);
      const ids = new Set<number>([viewer.id]);
      for (const row of coSubscribers) ids.add(row.userId);
      for (const row of coParticipants) ids.add(row.userId);
      for (const row of bots) ids.add(row.id);
      return ids;
    });
  }
}
