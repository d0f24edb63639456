import { describe, expect, it } from 'vitest';
import { ADMIN_EMAIL } from '../support/server.ts';
import { updateRealm } from '../support/factories.ts';
import { validateResponse } from '../support/openapi.ts';
import { rawRequest, type ApiClient, type Credentials } from '../support/client.ts';
import { allEvents, registerQueue, withoutIds } from '../support/events.ts';
import { useBot, useTeam, useTestServer } from '../support/fixtures.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** GIF with the single frame of `GIF` twice: animated. */
const ANIMATED_GIF = (() => {
  const frameStart = GIF.indexOf(0x21, 13);
  const frames = GIF.subarray(frameStart, GIF.length - 1);
  return Buffer.concat([GIF.subarray(0, GIF.length - 1), frames, Buffer.from([0x3b])]);
})();

const t = useTestServer();
const { alice, bob, admin, guest } = useTeam(t, ['alice', 'bob', 'admin', 'guest']);
const bot = useBot(t, alice, { fullName: 'Emoji Bot' });

interface Upload { field?: string; name?: string; type?: string; bytes: Buffer }

/** POST /realm/emoji/{name} as a multipart upload, as Zulip clients send it. */
async function upload(who: Credentials | undefined, name: string, files: Upload[] = [{ bytes: PNG }], host?: string) {
  const boundary = '----parleyemoji' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  files.forEach((f, i) => {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.field ?? `file-${i}`}"; filename="${f.name ?? 'emoji.png'}"\r\nContent-Type: ${f.type ?? 'image/png'}\r\n\r\n`));
    parts.push(f.bytes, Buffer.from('\r\n'));
  });
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const body = Buffer.concat(parts);
  const headers: Record<string, string> = { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(body.length), 'user-agent': 'ParleyTests/1.0' };
  if (host) headers.host = host;
  if (who) headers.authorization = 'Basic ' + Buffer.from(`${who.email}:${who.apiKey}`).toString('base64');
  const path = `/realm/emoji/${encodeURIComponent(name)}`;
  const res = await rawRequest('POST', `${t.baseUrl}/api/v1${path}`, headers, body);
  validateResponse('POST', path, res.status, res.body);
  return res;
}

async function listEmoji(who: Credentials = alice) {
  const res = await t.client(who).get('/realm/emoji');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return Object.values(res.body.emoji) as any[];
}

async function activeNamed(name: string) {
  return (await listEmoji()).filter((e) => e.name === name && !e.deactivated);
}

function expectError(res: { status: number; body: any }, msg: string, status = 400) {
  expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg });
  expect(res.status).toBe(status);
}

const register = (client: ApiClient, capabilities: Record<string, boolean> = {}) => registerQueue(client, { event_types: ['realm_emoji'], fetch_event_types: ['realm_emoji'], client_capabilities: capabilities });

const poll = async (client: ApiClient, queueId: string) => withoutIds(await allEvents(client, queueId));

describe('POST /realm/emoji/{emoji_name}', () => {
  it('adds the emoji; GET /realm/emoji lists it and its image is served at source_url', async () => {
    const res = await upload(alice, 'party_parrot', [{ bytes: GIF, name: 'parrot.gif', type: 'image/gif' }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [emoji] = await activeNamed('party_parrot');
    expect(emoji).toEqual({
      id: emoji.id, name: 'party_parrot', source_url: `/user_avatars/${t.realmId}/emoji/images/${emoji.id}.gif`,
      still_url: null, deactivated: false, author_id: alice.userId,
    });
    const image = await rawRequest('GET', `${t.baseUrl}${emoji.source_url}`, {});
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/gif');
    const reg = await register(t.client(bob));
    expect(reg.realm_emoji[emoji.id]).toEqual(emoji);
  });

  it('gives animated GIFs a still_url serving their first frame', async () => {
    expect((await upload(alice, 'spinner', [{ bytes: ANIMATED_GIF, name: 'spin.gif', type: 'image/gif' }])).status).toBe(200);
    const [emoji] = await activeNamed('spinner');
    expect(emoji.still_url).toBe(`/user_avatars/${t.realmId}/emoji/images/still/${emoji.id}.png`);
    const still = await rawRequest('GET', `${t.baseUrl}${emoji.still_url}`, {});
    expect(still.status).toBe(200);
    const { gifLayout } = await import('../../resolvers/emoji/gif.ts');
    const full = await fetch(`${t.baseUrl}${emoji.source_url}`).then((r) => r.arrayBuffer());
    const first = await fetch(`${t.baseUrl}${emoji.still_url}`).then((r) => r.arrayBuffer());
    expect(gifLayout(Buffer.from(full))?.frames).toBe(2);
    expect(gifLayout(Buffer.from(first))?.frames).toBe(1);
    // A static image has no still.
    const [parrot] = await activeNamed('party_parrot');
    expect(parrot.still_url).toBeNull();
    expect((await rawRequest('GET', `${t.baseUrl}/user_avatars/${t.realmId}/emoji/images/still/${parrot.id}.png`, {})).status).toBe(404);
  });

  it('turns spaces into underscores', async () => {
    expect((await upload(alice, 'thumbs up here')).status).toBe(200);
    expect(await activeNamed('thumbs_up_here')).toHaveLength(1);
  });

  describe('refuses, writing nothing', () => {
    const cases: [string, () => Promise<{ status: number; body: any }>, string][] = [
      ['upper-case names', () => upload(alice, 'Shouty'), 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.'],
      ['other characters', () => upload(alice, 'ok!'), 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.'],
      ['names ending in an underscore or dash', () => upload(alice, 'trailing_'), 'Emoji names must end with either a letter or digit.'],
      ['blank names', () => upload(alice, '  '), 'Emoji name is missing'],
      ['no file', () => upload(alice, 'nofile', []), 'You must upload exactly one file.'],
      ['two files', () => upload(alice, 'twofiles', [{ bytes: PNG }, { bytes: PNG }]), 'You must upload exactly one file.'],
      ['a file that is not an image', () => upload(alice, 'notimage', [{ bytes: Buffer.from('hello world'), type: 'image/png' }]), 'Invalid image format'],
      ['files over 5 MiB', () => upload(alice, 'huge', [{ bytes: Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]) }]), 'Uploaded file is larger than the allowed limit of 5 MiB'],
      ['members overriding a built-in emoji', () => upload(alice, 'smile'), 'Only administrators can override built-in emoji.'],
      ['guests', () => upload(guest, 'guestmoji'), 'Not allowed for guest users'],
      ['bots', () => upload(bot, 'botmoji'), 'This endpoint does not accept bot requests.'],
    ];
    for (const [what, act, msg] of cases) {
      it(what, async () => {
        const before = await listEmoji();
        expectError(await act(), msg);
        expect(await listEmoji()).toEqual(before);
      });
    }
  });

  it('lets administrators override a built-in emoji', async () => {
    expect((await upload(admin, 'smile')).status).toBe(200);
  });

  it('refuses a second active emoji of the same name, and allows it once the first is deactivated', async () => {
    expect((await upload(alice, 'taken')).status).toBe(200);
    expectError(await upload(bob, 'taken'), 'A custom emoji with this name already exists.');
    expect(await activeNamed('taken')).toHaveLength(1);
    expect((await t.client(alice).delete('/realm/emoji/taken')).status).toBe(200);
    expect((await upload(bob, 'taken')).status).toBe(200);
    const all = (await listEmoji()).filter((e) => e.name === 'taken');
    expect(all.map((e) => [e.author_id, e.deactivated])).toEqual([[alice.userId, true], [bob.userId, false]]);
  });

  it('follows can_add_custom_emoji_group', async () => {
    const db = t.db;
    const realm = await db.realm.findUniqueOrThrow({ where: { id: t.realmId } });
    const admins = await db.userGroup.findFirstOrThrow({ where: { realmId: t.realmId, name: 'role:administrators' } });
    await updateRealm(t, { can_add_custom_emoji_group: { new: admins.id } });
    try {
      expectError(await upload(alice, 'members_cannot'), 'Insufficient permission');
      expect(await activeNamed('members_cannot')).toEqual([]);
      expect((await upload(admin, 'admins_can')).status).toBe(200);
    } finally {
      await updateRealm(t, { can_add_custom_emoji_group: { new: realm.canAddCustomEmojiGroupId } });
    }
  });

  it('needs credentials', async () => {
    expect((await upload(undefined, 'anon')).status).toBe(401);
  });
});

describe('DELETE /realm/emoji/{emoji_name}', () => {
  it('lets the author deactivate their emoji; it stays listed as deactivated', async () => {
    await upload(bob, 'bobs_own');
    expect((await t.client(bob).delete('/realm/emoji/bobs_own')).status).toBe(200);
    expect((await listEmoji()).find((e) => e.name === 'bobs_own')).toMatchObject({ deactivated: true, author_id: bob.userId });
  });

  it('lets administrators deactivate anyone\'s emoji', async () => {
    await upload(bob, 'admin_removes');
    expect((await t.client(admin).delete('/realm/emoji/admin_removes')).status).toBe(200);
    expect(await activeNamed('admin_removes')).toEqual([]);
  });

  it('refuses other members and guests', async () => {
    await upload(bob, 'not_yours');
    for (const who of [alice, guest]) {
      expectError(await t.client(who).delete('/realm/emoji/not_yours'), 'Must be an organization administrator or emoji author');
    }
    expect(await activeNamed('not_yours')).toHaveLength(1);
  });

  it('answers 404 for an unknown or already deactivated emoji', async () => {
    expectError(await t.client(admin).delete('/realm/emoji/green_tick'), "Emoji 'green_tick' does not exist", 404);
    await upload(bob, 'twice');
    expect((await t.client(bob).delete('/realm/emoji/twice')).status).toBe(200);
    expectError(await t.client(bob).delete('/realm/emoji/twice'), "Emoji 'twice' does not exist", 404);
  });
});

describe('realm_emoji events', () => {
  it('are add and edit for clients with individual_emoji_changes, the full legacy update otherwise', async () => {
    const modern = await register(t.client(alice), { individual_emoji_changes: true });
    const legacy = await register(t.client(bob));
    const guestQueue = await register(t.client(guest));
    await upload(alice, 'eventful');
    await t.client(alice).delete('/realm/emoji/eventful');
    const [emoji] = (await listEmoji()).filter((e) => e.name === 'eventful');
    const all = Object.fromEntries((await listEmoji()).map((e) => [e.id, e]));

    expect(await poll(t.client(alice), modern.queue_id)).toEqual([
      { type: 'realm_emoji', op: 'add', emoji: { ...emoji, deactivated: false } },
      { type: 'realm_emoji', op: 'edit', emoji_id: emoji.id, data: { deactivated: true } },
    ]);
    const updates = await poll(t.client(bob), legacy.queue_id);
    expect(updates.map((e) => e.op)).toEqual(['update', 'update']);
    expect(updates[0].realm_emoji[emoji.id]).toEqual({ ...emoji, deactivated: false });
    expect(updates[1].realm_emoji).toEqual(all);
    // Every user of the organization hears of it, guests included.
    expect((await poll(t.client(guest), guestQueue.queue_id)).map((e) => e.op)).toEqual(['update', 'update']);
  });

  it('are not sent for a refused upload', async () => {
    const q = await register(t.client(bob), { individual_emoji_changes: true });
    await upload(guest, 'refused');
    await t.client(alice).delete('/realm/emoji/refused');
    expect(await poll(t.client(bob), q.queue_id)).toEqual([]);
  });
});

describe('custom emoji in statuses', () => {
  it('resolves a custom emoji name to realm_emoji and checks the triple', async () => {
    await upload(alice, 'status_icon');
    const [emoji] = await activeNamed('status_icon');
    const set = await t.client(bob).post('/users/me/status', { emoji_name: 'status_icon' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect((await t.client(alice).get(`/users/${bob.userId}/status`)).body.status).toEqual({ emoji_name: 'status_icon', emoji_code: emoji.id, reaction_type: 'realm_emoji' });
    expectError(await t.client(bob).post('/users/me/status', { emoji_name: 'other_name', emoji_code: emoji.id, reaction_type: 'realm_emoji' }), 'Invalid custom emoji name.');
    expectError(await t.client(bob).post('/users/me/status', { emoji_name: 'status_icon', emoji_code: '99999', reaction_type: 'realm_emoji' }), 'Invalid custom emoji.');
    await t.client(alice).delete('/realm/emoji/status_icon');
    expectError(await t.client(bob).post('/users/me/status', { emoji_name: 'status_icon', emoji_code: emoji.id, reaction_type: 'realm_emoji' }), 'This custom emoji has been deactivated.');
    // By name alone, a deactivated emoji no longer exists.
    expectError(await t.client(bob).post('/users/me/status', { emoji_name: 'status_icon' }), "Emoji 'status_icon' does not exist");
  });
});

describe('other organizations', () => {
  it('neither see nor serve nor remove this organization\'s emoji', async () => {
    const { createRealm } = await import('../../resolvers/realm/create.ts');
    await createRealm(t.db, { stringId: 'other', name: 'Other', ownerEmail: 'boss@other.example.com', ownerPassword: 'pw-other-123' });
    const key = await t.client(undefined, 'other.localhost').post('/fetch_api_key', { username: 'boss@other.example.com', password: 'pw-other-123' });
    const boss = { email: key.body.email, apiKey: key.body.api_key, userId: key.body.user_id };
    await upload(alice, 'homegrown');
    const [emoji] = await activeNamed('homegrown');

    const theirs = await t.client(boss, 'other.localhost').get('/realm/emoji');
    expect(theirs.body.emoji).toEqual({});
    expectError(await t.client(boss, 'other.localhost').delete('/realm/emoji/homegrown'), "Emoji 'homegrown' does not exist", 404);
    const image = await rawRequest('GET', `${t.baseUrl}${emoji.source_url}`, { host: 'other.localhost' });
    expect(image.status).toBe(404);
    // Their own emoji of the same name is theirs alone.
    expect((await upload(boss, 'homegrown', undefined, 'other.localhost')).status).toBe(200);
    expect(await activeNamed('homegrown')).toEqual([emoji]);
    expect(ADMIN_EMAIL).toBeTruthy();
  });
});
