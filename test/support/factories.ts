// Test factories: users with roles, channels, messages, through the public API.
import type { ApiClient, Credentials } from './client.ts';
import type { TestServer } from './server.ts';

let counter = 0;

export interface MadeUser extends Credentials {
  fullName: string;
}

/** Creates a user through POST /users as the owner, sets the role directly, logs in. */
export async function makeUser(t: TestServer, options: { fullName?: string; role?: number; email?: string } = {}): Promise<MadeUser> {
  counter += 1;
  const email = options.email ?? `user${counter}-${Date.now()}@example.com`;
  const fullName = options.fullName ?? `User ${counter}`;
  const owner = t.client(t.owner);
  const created = await owner.post('/users', { email, password: 'pw-' + email, full_name: fullName });
  if (created.status !== 200) throw new Error(`makeUser: ${JSON.stringify(created.body)}`);
  if (options.role && options.role !== 400) {
    // Role changes are their own issue's endpoint; until then the factory sets them in the database.
    const db = t.server.database.prisma;
    await db.user.update({ where: { id: created.body.user_id }, data: { role: options.role } });
    const { syncRoleGroups } = await import('../../resolvers/groups/system.ts');
    const user = await db.user.findUniqueOrThrow({ where: { id: created.body.user_id } });
    await syncRoleGroups(db as any, user.realmId, user.id, options.role);
  }
  const key = await t.client().post('/fetch_api_key', { username: email, password: 'pw-' + email });
  return { email: key.body.email, apiKey: key.body.api_key, userId: key.body.user_id, fullName };
}

export async function makeChannel(client: ApiClient, name: string, options: Record<string, unknown> = {}): Promise<number> {
  const res = await client.post('/users/me/subscriptions', { subscriptions: [{ name }], ...options });
  if (res.status !== 200) throw new Error(`makeChannel: ${JSON.stringify(res.body)}`);
  const id = await client.get('/get_stream_id', { stream: name });
  return id.body.stream_id;
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
