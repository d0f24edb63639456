// Test factories: users, bots, roles, settings, channels and messages, all made through the public
// API as Zulip's administrators and clients make them, so that fixtures take the real code paths
// (groups, subscriptions, events). Tests write to the database only for states the API cannot
// produce (a due time in the past, server-level limits), and say so where they do.
import type { ApiClient, Credentials } from './client.ts';
import type { TestServer } from './server.ts';
import { ROLE_ADMINISTRATOR, ROLE_GUEST, ROLE_MEMBER, ROLE_MODERATOR } from '../../resolvers/users/roles.ts';
import { DEFAULT_BOT } from '../../resolvers/bots/bots.ts';

let counter = 0;

export interface MadeUser extends Credentials {
  fullName: string;
}

/**
 * A member (or, with `role`, any role) made as Zulip's administrators make them: POST /users by the
 * owner, then PATCH /users/{user_id} for the role, so that groups and events follow the real path.
 */
export async function makeUser(t: TestServer, options: { fullName?: string; role?: number; email?: string } = {}): Promise<MadeUser> {
  counter += 1;
  const email = options.email ?? `user${counter}-${Date.now()}@example.com`;
  const fullName = options.fullName ?? `User ${counter}`;
  const owner = t.client(t.owner);
  const created = await owner.post('/users', { email, password: 'pw-' + email, full_name: fullName });
  if (created.status !== 200) throw new Error(`makeUser: ${JSON.stringify(created.body)}`);
  if (options.role && options.role !== ROLE_MEMBER) await setRole(t, created.body.user_id, options.role);
  const key = await t.client().post('/fetch_api_key', { username: email, password: 'pw-' + email });
  return { email: key.body.email, apiKey: key.body.api_key, userId: key.body.user_id, fullName };
}

/** Changes a user's (or bot's) role through PATCH /users/{user_id}, as the owner. */
export async function setRole(t: TestServer, userId: number, role: number): Promise<void> {
  const res = await t.client(t.owner).patch(`/users/${userId}`, { role });
  if (res.status !== 200) throw new Error(`setRole: ${JSON.stringify(res.body)}`);
}

/** Deactivates a user (or bot) through DELETE /users/{user_id}, as the owner. */
export async function deactivate(t: TestServer, userId: number): Promise<void> {
  const res = await t.client(t.owner).delete(`/users/${userId}`);
  if (res.status !== 200) throw new Error(`deactivate: ${JSON.stringify(res.body)}`);
}

/** Reactivates a user (or bot) through POST /users/{user_id}/reactivate, as the owner. */
export async function reactivate(t: TestServer, userId: number): Promise<void> {
  const res = await t.client(t.owner).post(`/users/${userId}/reactivate`);
  if (res.status !== 200) throw new Error(`reactivate: ${JSON.stringify(res.body)}`);
}

/** Changes a user's personal settings through PATCH /settings, as that user. */
export async function updateSettings(t: TestServer, user: Credentials, settings: Record<string, unknown>): Promise<void> {
  const res = await t.client(user).patch('/settings', settings);
  if (res.status !== 200) throw new Error(`updateSettings: ${JSON.stringify(res.body)}`);
}

/** Changes organization settings through PATCH /realm, as the owner (group settings as `{ new: groupId }`). */
export async function updateRealm(t: TestServer, settings: Record<string, unknown>): Promise<void> {
  const res = await t.client(t.owner).patch('/realm', settings);
  if (res.status !== 200) throw new Error(`updateRealm: ${JSON.stringify(res.body)}`);
}

/**
 * The usual cast of test files, so that files read alike: `makeTeam(t, ['admin', 'alice', 'guest'])`
 * makes those users, in that order, and returns them by name.
 */
export const CAST = {
  admin: { fullName: 'Ada Admin', role: ROLE_ADMINISTRATOR },
  moderator: { fullName: 'Mo Moderator', role: ROLE_MODERATOR },
  alice: { fullName: 'Alice Liddell' },
  bob: { fullName: 'Bob Builder' },
  carol: { fullName: 'Carol Singer' },
  member: { fullName: 'Mel Member' },
  guest: { fullName: 'Gus Guest', role: ROLE_GUEST },
} as const satisfies Record<string, { fullName: string; role?: number }>;
export type CastName = keyof typeof CAST;

export async function makeTeam<N extends CastName>(t: TestServer, names: readonly N[]): Promise<Record<N, MadeUser>> {
  const team = {} as Record<N, MadeUser>;
  // One after the other: user IDs follow the list, which some tests' orderings rely on.
  for (const name of names) team[name] = await makeUser(t, CAST[name]);
  return team;
}

/**
 * A bot created by `owner` through POST /bots (a generic bot unless `botType` says otherwise;
 * `params` carries what other types need, such as `payload_url` or `service_name`). Returns the
 * bot's credentials: its key from the response, its email from the directory.
 */
export async function makeBot(
  t: TestServer,
  owner: Credentials,
  options: { fullName: string; botType?: number; params?: Record<string, unknown> },
): Promise<MadeUser> {
  counter += 1;
  const client = t.client(owner);
  const shortName = `${options.fullName.toLowerCase().replace(/[^a-z0-9]+/g, '')}${counter}`;
  const res = await client.post('/bots', { full_name: options.fullName, short_name: shortName, bot_type: options.botType ?? DEFAULT_BOT, ...options.params });
  if (res.status !== 200) throw new Error(`makeBot: ${JSON.stringify(res.body)}`);
  const record = await client.get(`/users/${res.body.user_id}`);
  if (record.status !== 200) throw new Error(`makeBot: ${JSON.stringify(record.body)}`);
  return { email: record.body.user.email, apiKey: res.body.api_key, userId: res.body.user_id, fullName: options.fullName };
}

export async function makeChannel(client: ApiClient, name: string, options: Record<string, unknown> = {}): Promise<number> {
  const res = await client.post('/users/me/subscriptions', { subscriptions: [{ name }], ...options });
  if (res.status !== 200) throw new Error(`makeChannel: ${JSON.stringify(res.body)}`);
  const id = await client.get('/get_stream_id', { stream: name });
  return id.body.stream_id;
}

/**
 * Creates a user group whose members are `members` only through a subgroup of theirs (so rules
 * that read groups must follow subgroups); returns the outer group's ID.
 */
export async function makeGroupThroughSubgroup(client: ApiClient, name: string, members: number[]): Promise<number> {
  const outer = await client.post('/user_groups/create', { name, description: `${name}, through a subgroup`, members: [] });
  const inner = await client.post('/user_groups/create', { name: `${name} members`, description: `the members of ${name}`, members });
  if (outer.status !== 200 || inner.status !== 200) throw new Error(`makeGroupThroughSubgroup: ${JSON.stringify([outer.body, inner.body])}`);
  const linked = await client.post(`/user_groups/${outer.body.group_id}/subgroups`, { add: [inner.body.group_id] });
  if (linked.status !== 200) throw new Error(`makeGroupThroughSubgroup: ${JSON.stringify(linked.body)}`);
  return outer.body.group_id;
}

/** Creates a channel folder through POST /channel_folders/create (administrators); returns its ID. */
export async function makeChannelFolder(client: ApiClient, name: string): Promise<number> {
  const res = await client.post('/channel_folders/create', { name, description: '' });
  if (res.status !== 200) throw new Error(`makeChannelFolder: ${JSON.stringify(res.body)}`);
  return res.body.channel_folder_id;
}

/** Changes a channel through PATCH /streams/{stream_id} (group settings as `{ new: groupId }`). */
export async function updateChannel(client: ApiClient, channelId: number, params: Record<string, unknown>): Promise<void> {
  const res = await client.patch(`/streams/${channelId}`, params);
  if (res.status !== 200) throw new Error(`updateChannel: ${JSON.stringify(res.body)}`);
}

/** Unsubscribes the user from every channel they are in, as themselves; returns the channels' names. */
export async function leaveAllChannels(t: TestServer, user: Credentials): Promise<string[]> {
  const client = t.client(user);
  const names: string[] = (await client.get('/users/me/subscriptions')).body.subscriptions.map((s: { name: string }) => s.name);
  const res = names.length ? await client.delete('/users/me/subscriptions', { subscriptions: names }) : { status: 200, body: null };
  if (res.status !== 200) throw new Error(`leaveAllChannels: ${JSON.stringify(res.body)}`);
  return names;
}

/** Subscribes the users to the named channels, as the owner. */
export async function subscribeUsers(t: TestServer, names: string[], userIds: number[]): Promise<void> {
  if (!names.length) return;
  const res = await t.client(t.owner).post('/users/me/subscriptions', { subscriptions: names.map((name) => ({ name })), principals: userIds });
  if (res.status !== 200) throw new Error(`subscribeUsers: ${JSON.stringify(res.body)}`);
}

export async function sendToChannel(client: ApiClient, channel: string | number, topic: string, content: string): Promise<number> {
  const res = await client.post('/messages', { type: 'channel', to: channel, topic, content });
  if (res.status !== 200) throw new Error(`sendToChannel: ${JSON.stringify(res.body)}`);
  return res.body.id;
}

export async function sendDirect(client: ApiClient, to: number[], content: string): Promise<number> {
  const res = await client.post('/messages', { type: 'direct', to, content });
  if (res.status !== 200) throw new Error(`sendDirect: ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/**
 * The owner of a second organization, served at `<subdomain>.localhost`: the outsider of
 * cross-organization tests. Address it with `t.client(credentials, host)`.
 */
export async function makeOtherRealmOwner(t: TestServer, subdomain: string): Promise<MadeUser & { host: string }> {
  const { createRealm } = await import('../../resolvers/realm/create.ts');
  const email = `boss@${subdomain}.example.com`;
  const password = `pw-${subdomain}-owner`;
  await createRealm(t.server.database.prisma, { stringId: subdomain, name: `Org ${subdomain}`, ownerEmail: email, ownerFullName: 'Other Boss', ownerPassword: password });
  const host = `${subdomain}.localhost`;
  const key = await t.client(undefined, host).post('/fetch_api_key', { username: email, password });
  if (key.status !== 200) throw new Error(`makeOtherRealmOwner: ${JSON.stringify(key.body)}`);
  return { email: key.body.email, apiKey: key.body.api_key, userId: key.body.user_id, fullName: 'Other Boss', host };
}
