// Channels: `subscription` (subscriptions, unsubscribed, never_subscribed), `stream` (streams),
// default channels and channel folders. All channels of the realm are read once; access, group
// settings, traffic and subscribers are then computed for the whole set in a few batched queries.
import { folderWire } from './folders.ts';
import { defaultChannelIds } from './default-streams.ts';
import type { Channel, Subscription } from '../../prisma/generated/client/client.ts';
import { isAdmin, isGuest } from '../users/roles.ts';
import { channelRecord, subscriptionFields, weeklyTraffic } from './wire.ts';
import { toUnixSeconds } from '../time.ts';
import {
  CHANNEL_ASSIGNMENT_COLORS,
} from '../limits.ts';
import { effectiveSettings } from '../settings/catalog.ts';
import { subscriberLists } from './members.ts';
import { metadataAccessGroupIds } from './permission-settings.ts';
import type { InitialState, Json } from '../events/initial-state/state.ts';
import { initialStatePart, initialStateSection } from '../events/initial-state/parts.ts';

const DAY_MS = 86_400_000;

const byName = (a: Json, b: Json) => {
  const x = a.name as string;
  const y = b.name as string;
  return x < y ? -1 : x > y ? 1 : 0;
};

/** The realm's channels (archived ones only for clients with `archived_channels`), with shared lookups. */
function channelData(s: InitialState) {
  return s.memo('channels', async () => {
    const withArchived = s.capability('archived_channels');
    const since = new Date(Date.now() - 28 * DAY_MS);
    const [channels, groups, traffic] = await Promise.all([
      s.db.channel.findMany({ where: { realmId: s.realm.id, ...(withArchived ? {} : { isArchived: false }) }, orderBy: { id: 'asc' } }),
      s.groups(),
      s.db.message.groupBy({
        by: ['channelId'],
        where: { realmId: s.realm.id, channelId: { not: null }, dateSent: { gte: since } },
        _count: { _all: true },
      }),
    ]);
    const recent = new Map(traffic.map((t) => [t.channelId!, t._count._all]));
    const now = Date.now();
    const record = (c: Channel) => channelRecord(c, groups, weeklyTraffic(c, recent.get(c.id) ?? 0, now));
    return { channels, groups, record };
  });
}

/** Is web-public content served to spectators at all (server setting and realm setting)? */
function spectatorsAllowed(s: InitialState): boolean {
  return s.config.webPublicStreamsEnabled && s.realm.enableSpectatorAccess;
}

/** The viewer's access to each channel, decided in memory from their subscriptions and groups. */
async function accessRules(s: InitialState) {
  const viewer = s.user!;
  const [subs, viewerGroups] = await Promise.all([s.viewerSubscriptions(), s.viewerGroupIds()]);
  const guest = isGuest(viewer);
  const admin = isAdmin(viewer);
  const inGroup = (id: number | null) => id != null && viewerGroups.has(id);
  // Permissions that grant metadata access without a subscription (feature levels 349, 357).
  const viaGroups = (c: Channel) => metadataAccessGroupIds(c).some(inGroup);
  const subscribed = (c: Channel) => subs.get(c.id)?.active === true;
  return {
    subs, guest, admin, viaGroups, subscribed,
    /** Metadata access: what GET /streams?include_all=true lists. */
    metadata(c: Channel): boolean {
      if (subscribed(c) || c.isWebPublic) return true;
      if (!c.inviteOnly && !guest) return true;
      return admin || viaGroups(c);
    },
    /** May the viewer see who is subscribed (Zulip's validate_user_access_to_subscribers)? */
    seesSubscribers(c: Channel): boolean {
      if (c.isWebPublic) return true;
      if (guest && subscribed(c)) return true;
      if (guest && !c.inviteOnly) return false;
      if (admin || viaGroups(c)) return true;
      return !c.inviteOnly || subscribed(c);
    },
  };
}

async function subscriptionState(s: InitialState, state: Json): Promise<void> {
  const { channels, record } = await channelData(s);
  const access = await accessRules(s);
  const subscribed: { channel: Channel; json: Json }[] = [];
  const unsubscribed: { channel: Channel; json: Json }[] = [];
  const never: { channel: Channel; json: Json }[] = [];

  for (const channel of channels) {
    const sub = access.subs.get(channel.id);
    if (sub?.active) {
      subscribed.push({ channel, json: { ...record(channel), ...subscriptionFields(sub) } });
    } else if (sub) {
      // Former subscribers keep the channel only while they may still know it exists.
      const visible = channel.isWebPublic || (!access.guest && (!channel.inviteOnly || access.admin || access.viaGroups(channel)));
      if (visible) unsubscribed.push({ channel, json: { ...record(channel), ...subscriptionFields(sub) } });
    } else {
      // Guests only discover web-public channels.
      const candidate = access.guest ? channel.isWebPublic : true;
      if (candidate && (!channel.inviteOnly || access.admin || access.viaGroups(channel))) never.push({ channel, json: record(channel) });
    }
  }

  if (s.options.includeSubscribers !== 'false') {
    const all = [...subscribed, ...unsubscribed, ...never];
    const lists = await subscriberLists(s.db, all.map((e) => e.channel).filter((c) => access.seesSubscribers(c)), s.options.includeSubscribers === 'partial');
    for (const { channel, json } of all) {
      const partial = lists.partial.get(channel.id);
      if (partial) json.partial_subscribers = partial;
      else json.subscribers = lists.full.get(channel.id) ?? [];
    }
  }

  // Clients without `notification_settings_null` get the user's defaults in place of null.
  if (!s.capability('notification_settings_null')) {
    const settings = effectiveSettings(s.user, s.realm);
    const defaults: Record<string, boolean> = {
      desktop_notifications: settings.enable_stream_desktop_notifications,
      audible_notifications: settings.enable_stream_audible_notifications,
      push_notifications: settings.enable_stream_push_notifications,
      email_notifications: settings.enable_stream_email_notifications,
      wildcard_mentions_notify: settings.wildcard_mentions_notify,
    };
    for (const { json } of [...subscribed, ...unsubscribed]) {
      for (const [key, value] of Object.entries(defaults)) if (json[key] == null) json[key] = value;
    }
  }

  state.subscriptions = subscribed.map((e) => e.json).sort(byName);
  state.unsubscribed = unsubscribed.map((e) => e.json).sort(byName);
  state.never_subscribed = never.map((e) => e.json).sort(byName);
}

/** Spectators see the web-public channels as if freshly subscribed, and nothing else. */
async function spectatorSubscriptions(s: InitialState, state: Json): Promise<void> {
  const data = await channelData(s);
  const channels = spectatorsAllowed(s) ? data.channels.filter((c) => c.isWebPublic) : [];
  const { record } = data;
  state.subscriptions = channels.map((c, i) => ({
    ...record(c),
    color: CHANNEL_ASSIGNMENT_COLORS[i % CHANNEL_ASSIGNMENT_COLORS.length],
    is_muted: false,
    in_home_view: true,
    pin_to_top: false,
    desktop_notifications: true,
    audible_notifications: true,
    push_notifications: true,
    email_notifications: true,
    wildcard_mentions_notify: true,
  })).sort(byName);
  state.unsubscribed = [];
  state.never_subscribed = [];
}

/** `streams`: every channel the viewer may know about (web-public ones for spectators). */
async function streamsState(s: InitialState, state: Json): Promise<void> {
  const { channels, record } = await channelData(s);
  let visible: Channel[];
  if (!s.user) visible = spectatorsAllowed(s) ? channels.filter((c) => c.isWebPublic) : [];
  else {
    const access = await accessRules(s);
    visible = channels.filter((c) => access.metadata(c));
  }
  state.streams = visible.map(record).sort(byName);
}

async function defaultStreamsState(s: InitialState, state: Json): Promise<void> {
  // Guests and spectators cannot reach every default channel, so they are told there are none.
  if (!s.user || isGuest(s.user)) {
    state.realm_default_streams = [];
    return;
  }
  state.realm_default_streams = await defaultChannelIds(s);
}

/** `channel_folders`: all of the realm's folders; spectators only those holding web-public channels. */
async function channelFoldersState(s: InitialState, state: Json): Promise<void> {
  const folders = await s.db.channelFolder.findMany({
    where: {
      realmId: s.realm.id,
      ...(s.user ? {} : { channels: { some: { isWebPublic: true, isArchived: false } } }),
    },
    orderBy: [{ order: 'asc' }, { id: 'asc' }],
  });
  state.channel_folders = (s.user || spectatorsAllowed(s) ? folders : []).map(folderWire);
}

initialStateSection(['subscription'], (s, state) => (s.user ? subscriptionState(s, state) : spectatorSubscriptions(s, state)));
initialStateSection(['stream'], streamsState);
initialStateSection(['default_streams'], defaultStreamsState);
// Parley has no default channel groups.
initialStatePart(['default_stream_groups'], async () => ({ realm_default_stream_groups: [] }));
initialStateSection(['channel_folders'], channelFoldersState);
