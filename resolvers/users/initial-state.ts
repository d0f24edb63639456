// People: the user list (`realm_user`), the viewer's own account fields, bots the viewer
// administers (`realm_bot`), presence and status. Each is built from a fixed number of queries.
import { botRecordsFor } from '../bots/bots.ts';
import { canSeeDeliveryEmail } from './present.ts';
import { avatarFields, avatarUrl } from './avatars.ts';
import { isAdmin, isGuest, isModerator, isOwner, ROLE_GUEST, ROLE_MEMBER } from './roles.ts';
import { toUnixSeconds } from '../time.ts';
import {
  DEFAULT_PRESENCE_HISTORY_LIMIT_DAYS, INACCESSIBLE_USER_AVATAR_URL, INACCESSIBLE_USER_NAME, LONG_TERM_IDLE_DAYS, PRESENCE_LEGACY_ACTIVITY_OFFSET_SECS,
} from '../limits.ts';
import { userSetting } from '../settings/catalog.ts';
import type { InitialState, Json } from '../events/initial-state/state.ts';
import { userRecord } from './wire.ts';
import { realmUrl } from '../realm/urls.ts';
import { initialStateSection } from '../events/initial-state/parts.ts';

const DAY_MS = 86_400_000;

/** The placeholder Zulip shows for a user the viewer may not see. */
function inaccessibleUser(userId: number, domain: string): Json {
  return {
    email: `user${userId}@${domain}`,
    user_id: userId,
    avatar_version: 1,
    is_admin: false,
    is_owner: false,
    is_guest: false,
    role: ROLE_MEMBER,
    is_bot: false,
    full_name: INACCESSIBLE_USER_NAME,
    timezone: '',
    date_joined: new Date(0).toISOString(),
    delivery_email: null,
    avatar_url: INACCESSIBLE_USER_AVATAR_URL,
    profile_data: {},
  };
}

function botDomain(s: InitialState): string {
  return new URL(realmUrl(s.realm, s.config)).hostname;
}

async function realmUserState(s: InitialState, state: Json): Promise<void> {
  const { user: viewer, realm, options } = s;
  const [users, accessible, profileValues] = await Promise.all([
    s.users(),
    s.accessibleUserIds(),
    // Spectators get no custom profile data.
    viewer
      ? s.db.customProfileFieldValue.findMany({
          where: { field: { realmId: realm.id } },
          select: { userId: true, fieldId: true, value: true, renderedValue: true },
        })
      : Promise.resolve([]),
  ]);
  const profiles = new Map<number, Record<string, Json>>();
  for (const v of profileValues) {
    let profile = profiles.get(v.userId);
    if (!profile) profiles.set(v.userId, (profile = {}));
    profile[String(v.fieldId)] = v.renderedValue == null ? { value: v.value } : { value: v.value, rendered_value: v.renderedValue };
  }

  // Spectators never get gravatar-less records: they cannot see anyone's address.
  const clientGravatar = viewer ? options.clientGravatar : false;
  const avatarOptional = s.capability('user_avatar_url_field_optional');
  const idleBefore = Date.now() - LONG_TERM_IDLE_DAYS * DAY_MS;
  const omitInaccessible = s.capability('user_list_incomplete');
  const domain = botDomain(s);

  const active: Json[] = [];
  const inactive: Json[] = [];
  for (const u of users.values()) {
    if (accessible && !accessible.has(u.id)) {
      // Guests without access see a placeholder (listed as active), unless they can cope with an incomplete list.
      if (!omitInaccessible) active.push(inaccessibleUser(u.id, domain));
      continue;
    }
    const longTermIdle = (u.lastActivity ?? u.dateJoined).getTime() < idleBefore;
    // Which list a user is in says whether they are active: Zulip pops is_active from both.
    const { is_active: _isActive, ...record } = userRecord(u, {
      viewer, clientGravatar, gravatar: s.ctx.config.gravatarEnabled, omitAvatarUrl: avatarOptional && longTermIdle, profileData: profiles.get(u.id) ?? {},
    });
    (u.isActive ? active : inactive).push(record);
  }
  state.realm_users = active;
  state.realm_non_active_users = inactive;
  // Parley has no cross-realm system bots.
  state.cross_realm_bots = [];
  Object.assign(state, await ownAccountState(s));
}

/** The viewer's own account and what they may do; spectators appear as an anonymous guest. */
async function ownAccountState(s: InitialState): Promise<Json> {
  const { user, realm } = s;
  const may = (groupId: number | null) => s.viewerHasPermission(groupId);
  const [pub, priv, webPublic, addSubscribers, invite] = await Promise.all([
    may(realm.canCreatePublicChannelGroupId),
    may(realm.canCreatePrivateChannelGroupId),
    may(realm.canCreateWebPublicChannelGroupId),
    may(realm.canAddSubscribersGroupId),
    may(realm.canInviteUsersGroupId),
  ]);
  const anonymousEmail = 'username@example.com';
  // Spectators appear as an anonymous user (ID 0) with a default avatar.
  const avatar = avatarFields(user ?? { id: 0, realmId: realm.id, deliveryEmail: anonymousEmail, avatarSource: 'G', avatarVersion: 1, avatarKey: null }, s.ctx.config.gravatarEnabled);
  const role = user?.role ?? ROLE_GUEST;
  return {
    user_id: user?.id ?? 0,
    email: user?.email ?? anonymousEmail,
    delivery_email: user?.deliveryEmail ?? anonymousEmail,
    full_name: user?.fullName ?? 'Anonymous User',
    avatar_source: avatar.avatar_source,
    avatar_url: avatar.avatar_url,
    avatar_url_medium: avatar.avatar_url_medium,
    is_admin: isAdmin({ role }),
    is_owner: isOwner({ role }),
    is_moderator: isModerator({ role }),
    is_guest: isGuest({ role }),
    can_create_public_streams: pub,
    can_create_private_streams: priv,
    can_create_web_public_streams: webPublic,
    can_create_streams: pub || priv || webPublic,
    can_subscribe_other_users: addSubscribers,
    can_invite_others_to_realm: invite,
  };
}

/** `realm_bots`: every bot for administrators, else the viewer's own bots. */
async function botsState(s: InitialState, state: Json): Promise<void> {
  const viewer = s.user;
  if (!viewer) {
    state.realm_bots = [];
    return;
  }
  state.realm_bots = await botRecordsFor(s.db, s.realm.id, viewer, s.ctx.config.gravatarEnabled);
}

/**
 * `presences`: users seen within the history limit, who share their presence. Modern format
 * (`slim_presence` or `simplified_presence_events`) is keyed by user ID, legacy by email.
 */
async function presenceState(s: InitialState, state: Json): Promise<void> {
  state.server_timestamp = Date.now() / 1000;
  const viewer = s.user;
  if (!viewer) {
    state.presences = {};
    return;
  }
  const requested = s.options.presenceHistoryLimitDays;
  const days = Number.isFinite(requested) && requested > 0 ? requested : DEFAULT_PRESENCE_HISTORY_LIMIT_DAYS;
  // A limit reaching before the earliest representable date means no limit at all.
  const since = new Date(Math.max(Date.now() - days * 86_400_000, 0));
  const [rows, users, accessible] = await Promise.all([
    s.db.userPresence.findMany({
      where: {
        realmId: s.realm.id,
        OR: [{ lastConnectedTime: { gte: since } }, { lastActiveTime: { gte: since } }],
        user: { isActive: true, isBot: false },
      },
      orderBy: { userId: 'asc' },
    }),
    s.users(),
    s.accessibleUserIds(),
  ]);
  const modern = s.options.slimPresence || s.capability('simplified_presence_events');
  const presences: Json = {};
  let lastUpdateId = -1;
  for (const row of rows) {
    const u = users.get(row.userId);
    if (!u || (accessible && !accessible.has(u.id))) continue;
    if (!userSetting(u, 'presence_enabled')) continue;
    const active = row.lastActiveTime ?? u.dateJoined;
    const connected = row.lastConnectedTime ?? row.lastActiveTime ?? u.dateJoined;
    // The update IDs POST /users/me/presence uses (resolvers/presence/presence.ts).
    lastUpdateId = Math.max(lastUpdateId, connected.getTime(), active.getTime());
    if (modern) {
      presences[String(u.id)] = { active_timestamp: toUnixSeconds(active), idle_timestamp: toUnixSeconds(connected) };
    } else {
      const isActive = active.getTime() + PRESENCE_LEGACY_ACTIVITY_OFFSET_SECS * 1000 >= connected.getTime();
      const timestamp = toUnixSeconds(isActive ? active : connected);
      const status = isActive ? 'active' : 'idle';
      presences[u.email] = {
        aggregated: { client: 'website', status, timestamp },
        website: { client: 'website', status, timestamp, pushable: false },
      };
    }
  }
  state.presences = presences;
  state.presence_last_update_id = lastUpdateId;
}

/** `user_status`: non-empty statuses of active users the viewer may see, keyed by user ID. */
async function userStatusState(s: InitialState, state: Json): Promise<void> {
  if (!s.user) {
    state.user_status = {};
    return;
  }
  const [rows, users, accessible] = await Promise.all([
    s.db.userStatus.findMany({ where: { user: { realmId: s.realm.id, isActive: true } }, orderBy: { userId: 'asc' } }),
    s.users(),
    s.accessibleUserIds(),
  ]);
  const statuses: Json = {};
  for (const row of rows) {
    const u = users.get(row.userId);
    if (!u || (accessible && !accessible.has(u.id))) continue;
    const status: Json = {};
    // Deprecated `away`: the negation of the user's presence_enabled setting.
    if (!userSetting(u, 'presence_enabled')) status.away = true;
    if (row.statusText) status.status_text = row.statusText;
    if (row.emojiName) {
      status.emoji_name = row.emojiName;
      status.emoji_code = row.emojiCode;
      status.reaction_type = row.reactionType;
    }
    if (Object.keys(status).length) statuses[String(u.id)] = status;
  }
  state.user_status = statuses;
}

initialStateSection(['realm_user'], realmUserState);
initialStateSection(['realm_bot'], botsState);
initialStateSection(['presence'], presenceState);
initialStateSection(['user_status'], userStatusState);
