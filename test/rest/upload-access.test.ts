// Who may read an upload linked from channel messages, as Zulip's validate_attachment_request: a
// viewer reads the file when they may read some message linking it by ID (has_message_access):
// channel history through a subscription or through the groups granting content access
// (can_subscribe_group, can_add_subscribers_group; never guests), and a received message only
// while they are subscribed or in those groups. Direct messages and public channels are in
// test/rest/uploads.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { makeChannel, sendToChannel, updateRealm, type MadeUser, makeGroupThroughSubgroup } from '../support/factories.ts';
import { graphql, type Credentials } from '../support/client.ts';
import { multipart } from '../clients/support.ts';
import { fails, ok } from '../graphql/helpers.ts';
import { useOtherRealmOwner, useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer();
const { alice, bob, carol, guest } = useTeam(t, ['alice', 'bob', 'carol', 'guest']);
const boss = useOtherRealmOwner(t, 'elsewhere');
const urls = {} as Record<'den' | 'club' | 'crypt' | 'attic' | 'porch' | 'plaza', string>;

const TEMPORARY = 'query($r: String!, $f: String!) { uploadTemporaryUrl(realmIdStr: $r, filename: $f) }';

function download(url: string, who: Credentials, host?: string): Promise<number> {
  const headers: Record<string, string> = { authorization: 'Basic ' + Buffer.from(`${who.email}:${who.apiKey}`).toString('base64'), ...(host ? { host } : {}) };
  return new Promise((resolve, reject) => {
    http.get(`${t.baseUrl}${url}`, { headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    }).on('error', reject);
  });
}

/** The file by its URL, and by a temporary URL through REST and GraphQL: 200 or the refusal. */
async function reads(who: MadeUser, url: string): Promise<[number, number, boolean]> {
  const path = url.slice('/user_uploads/'.length);
  const [realm, ...rest] = path.split('/');
  const temporary = await t.client(who).get(`/user_uploads/${path}`);
  const viaGraphql = await graphql(t.baseUrl, TEMPORARY, { r: realm, f: rest.join('/') }, who);
  return [await download(url, who), temporary.status, !viaGraphql.body.errors?.length];
}

async function linkIn(channel: keyof typeof urls): Promise<void> {
  const res = await multipart(t.baseUrl, 'POST', '/user_uploads', alice, {}, [{ name: `${channel}.txt`, filename: `${channel}.txt`, bytes: Buffer.from(channel) }]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  urls[channel] = res.body.url;
  await sendToChannel(t.client(alice), channel, 'files', `[${channel}.txt](${res.body.url})`);
}

beforeAll(async () => {
  const owner = t.ownerClient;
  await updateRealm(t, { enable_spectator_access: true });
  const group = await makeGroupThroughSubgroup(owner, 'insiders', [carol.userId, guest.userId]);
  await makeChannel(owner, 'den', { invite_only: true, history_public_to_subscribers: true, can_subscribe_group: group, principals: [alice.userId] });
  await makeChannel(owner, 'club', { invite_only: true, history_public_to_subscribers: true, can_add_subscribers_group: group, principals: [alice.userId] });
  await makeChannel(owner, 'crypt', { invite_only: true, history_public_to_subscribers: false, can_subscribe_group: group, principals: [alice.userId, bob.userId, carol.userId] });
  await makeChannel(owner, 'attic', { invite_only: true, history_public_to_subscribers: true, principals: [alice.userId, bob.userId] });
  await makeChannel(owner, 'porch', { principals: [alice.userId, guest.userId] });
  await makeChannel(owner, 'plaza', { is_web_public: true, principals: [alice.userId] });
  for (const channel of Object.keys({ den: 1, club: 1, crypt: 1, attic: 1, porch: 1, plaza: 1 }) as (keyof typeof urls)[]) await linkIn(channel);
  for (const [who, channel] of [[bob, 'crypt'], [carol, 'crypt'], [bob, 'attic'], [guest, 'porch']] as const) {
    expect((await t.client(who).delete('/users/me/subscriptions', { subscriptions: [channel] })).status).toBe(200);
  }
});

describe('members of the groups granting content access read files in a shared history', () => {
  it('through can_subscribe_group and can_add_subscribers_group, via a subgroup (file, temporary URL, GraphQL); nobody else', async () => {
    expect(await reads(carol, urls.den)).toEqual([200, 200, true]);
    expect(await reads(carol, urls.club)).toEqual([200, 200, true]);
    // A member outside the group, a guest inside it.
    for (const who of [bob, guest]) {
      expect(await reads(who, urls.den)).toEqual([403, 400, false]);
      expect(await reads(who, urls.club)).toEqual([403, 400, false]);
    }
    expect((await fails(t, TEMPORARY, { r: urls.den.split('/')[2], f: urls.den.split('/').slice(3).join('/') }, bob)).error.message).toBe('You are not authorized to view this file.');
    // Another organization knows no such file.
    expect(await download(urls.den, boss, boss.host)).toBe(404);
  });
});

describe('a received channel message shares its file only while the viewer may read it', () => {
  it('after leaving: a group member keeps a protected history\'s file, others lose private and (guests) public ones', async () => {
    expect(await reads(carol, urls.crypt)).toEqual([200, 200, true]);
    expect(await reads(bob, urls.crypt)).toEqual([403, 400, false]);
    expect(await reads(bob, urls.attic)).toEqual([403, 400, false]);
    expect(await reads(guest, urls.porch)).toEqual([403, 400, false]);
    // Still subscribed, or a member in a public channel: readable.
    expect(await reads(alice, urls.attic)).toEqual([200, 200, true]);
    expect(await reads(bob, urls.porch)).toEqual([200, 200, true]);
    // A guest reads no web-public file they did not receive (a spectator would: uploads.test.ts).
    expect(await reads(guest, urls.plaza)).toEqual([403, 400, false]);
    expect((await ok(t, TEMPORARY, { r: urls.attic.split('/')[2], f: urls.attic.split('/').slice(3).join('/') }, alice)).uploadTemporaryUrl).toMatch(/^\/user_uploads\/temporary\//);
  });
});
