// Organization exports: POST/GET /export/realm, DELETE /export/realm/{id}, GET /export/realm/consents,
// realm_export events, and the round trip: an export of one server restored by the management CLI
// (`manage import`) into a fresh server, compared through the API.
import { beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from '../support/server.ts';
import { makeChannel, makeUser, sendDirect, sendToChannel, type MadeUser } from '../support/factories.ts';
import type { Credentials } from '../support/client.ts';
import { validateResponse } from '../support/openapi.ts';
import { multipart, PNG } from '../clients/support.ts';
import { only, openQueue } from '../support/events.ts';
import { unpackExport } from '../../resolvers/exports/archive.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

let uploadUrl: string;
const t = useTestServer();
const { admin, alice, bob } = useTeam(t, ['admin', 'alice', 'bob']);

function get(base: string, url: string, who?: Credentials, host?: string) {
  return new Promise<{ status: number; bytes: Buffer }>((resolve, reject) => {
    const headers: Record<string, string> = {
      ...(who ? { authorization: 'Basic ' + Buffer.from(`${who.email}:${who.apiKey}`).toString('base64') } : {}),
      ...(host ? { host } : {}),
    };
    http.get(new URL(url, base), { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, bytes: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

/** Waits until the export is built (or failed), as a client following GET /export/realm would. */
async function finished(id: number) {
  for (let i = 0; i < 300; i++) {
    const res = await t.client(admin).get('/export/realm');
    const found = res.body.exports.find((e: any) => e.id === id);
    if (!found.pending) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('export never finished');
}

beforeAll(async () => {
  await makeChannel(t.client(alice), 'lobby', { principals: [alice.userId, bob.userId] });
  await makeChannel(t.client(alice), 'secret', { invite_only: true, principals: [alice.userId, bob.userId] });
  const upload = await multipart(t.baseUrl, 'POST', '/user_uploads', alice, {}, [{ name: 'f', filename: 'notes.txt', bytes: Buffer.from('the notes\n') }]);
  uploadUrl = upload.body.url;
  const first = await sendToChannel(t.client(alice), 'lobby', 'plans', `Read [notes.txt](${uploadUrl})`);
  await sendToChannel(t.client(bob), 'lobby', 'plans', 'Will do **today**');
  await t.client(bob).post(`/messages/${first}/reactions`, { emoji_name: 'octopus' });
  await sendToChannel(t.client(alice), 'secret', 'hush', 'private plans');
  await sendDirect(t.client(alice), [bob.userId], 'a direct word');
  await multipart(t.baseUrl, 'POST', '/users/me/avatar', alice, {}, [{ name: 'f', filename: 'me.png', bytes: PNG }]);
});

describe('POST /export/realm', () => {
  it('is for administrators', async () => {
    const res = await t.client(alice).post('/export/realm');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED_PRINCIPAL' });
    expect((await t.client(alice).get('/export/realm')).body.code).toBe('UNAUTHORIZED_PRINCIPAL');
    expect((await t.client(alice).get('/export/realm/consents')).body.code).toBe('UNAUTHORIZED_PRINCIPAL');
  });

  it('refuses a standard export until an owner consents, and unknown types', async () => {
    const res = await t.client(admin).post('/export/realm', { export_type: '2' });
    expect(res.body.msg).toMatch(/^Make sure at least one Organization Owner is consenting to the export/);
    expect((await t.client(admin).post('/export/realm', { export_type: '3' })).body.msg).toBe('Invalid export_type');
  });

  it('builds the archive in the background, telling administrators (realm_export)', async () => {
    const queue = await openQueue(t.client(admin), { event_types: '["realm_export"]' });
    const res = await t.client(admin).post('/export/realm');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    validateResponse('POST', '/export/realm', res.status, res.body);
    const done = await finished(res.body.id);
    expect(done).toMatchObject({ id: res.body.id, acting_user_id: admin.userId, export_type: 1, pending: false, failed_timestamp: null, deleted_timestamp: null });
    expect(done.export_url).toMatch(new RegExp(`^/user_avatars/exports/${t.realmId}/[A-Za-z0-9_-]{24}/parley-export-root-${res.body.id}\\.tar\\.gz$`));
    const listed = await t.client(admin).get('/export/realm');
    validateResponse('GET', '/export/realm', listed.status, listed.body);
    const events = (await queue.events()).filter((e) => e.type === 'realm_export');
    expect(events.length).toBe(2);
    expect(events[0]!.exports.at(-1)).toMatchObject({ id: res.body.id, pending: true, export_url: null });
    expect(events[1]!.exports.at(-1)).toMatchObject({ id: res.body.id, pending: false, export_url: done.export_url });
    const archive = await get(t.baseUrl, done.export_url);
    expect(archive.status).toBe(200);
    expect(archive.bytes.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  });
});

describe('GET /export/realm/consents and realm_export_consent', () => {
  it('lists active members\' consent, and administrators hear of changes', async () => {
    const queue = await openQueue(t.client(admin), { event_types: '["realm_export_consent"]' });
    await t.client(bob).patch('/settings', { allow_private_data_export: 'true' });
    expect(only(await queue.events(), 'realm_export_consent')).toMatchObject({ user_id: bob.userId, consented: true });
    const res = await t.client(admin).get('/export/realm/consents');
    validateResponse('GET', '/export/realm/consents', res.status, res.body);
    expect(res.body.export_consents).toContainEqual({ user_id: bob.userId, consented: true });
    expect(res.body.export_consents).toContainEqual({ user_id: alice.userId, consented: false });
  });

  it('tells administrators of a newcomer\'s and a returning member\'s consent', async () => {
    const queue = await openQueue(t.client(admin), { event_types: '["realm_export_consent"]' });
    const newcomer = await makeUser(t, { fullName: 'Newcomer' });
    expect(only(await queue.events(), 'realm_export_consent')).toMatchObject({ user_id: newcomer.userId, consented: false });
    await t.client(admin).delete(`/users/${newcomer.userId}`);
    expect((await t.client(admin).post(`/users/${newcomer.userId}/reactivate`)).status).toBe(200);
    expect(only(await queue.events(), 'realm_export_consent')).toMatchObject({ user_id: newcomer.userId, consented: false });
  });
});

describe('standard exports (export_type 2)', () => {
  it('add the private channels and direct messages consenting members received, and only their flags', async () => {
    expect((await t.client(t.owner).patch('/settings', { allow_private_data_export: 'true' })).status).toBe(200);
    const publicId = (await t.client(admin).post('/export/realm')).body.id as number;
    const standardId = (await t.client(admin).post('/export/realm', { export_type: '2' })).body.id as number;
    const contents = async (id: number) => {
      const done = await finished(id);
      expect(done.export_type).toBe(id === standardId ? 2 : 1);
      const data = await unpackExport((await get(t.baseUrl, done.export_url)).bytes);
      return {
        messages: data.tables.messages!.map((m) => m.content).sort(),
        channels: data.tables.channels!.map((c) => c.name).sort(),
        flagsOf: [...new Set(data.tables.user_messages!.map((um) => um.userId))].sort(),
        data,
      };
    };
    const pub = await contents(publicId);
    expect(pub.messages).toEqual([`Read [notes.txt](${uploadUrl})`, 'Will do **today**']);
    expect(pub.channels).not.toContain('secret');
    expect(pub.data.tables.users!.every((u) => !('apiKey' in u))).toBe(true);
    // Bob consented (above): what he received is in; Alice did not, so her flags are not.
    const std = await contents(standardId);
    expect(std.messages).toEqual([`Read [notes.txt](${uploadUrl})`, 'Will do **today**', 'a direct word', 'private plans'].sort());
    expect(std.channels).toContain('secret');
    expect(std.flagsOf).toEqual([bob.userId]);
    expect([...std.data.files.keys()].some((k) => k.startsWith(`files/${uploadUrl.slice('/user_uploads/'.length)}`))).toBe(true);
  });
});

describe('DELETE /export/realm/{export_id}', () => {
  it('removes a finished archive once, and knows no other organization\'s exports', async () => {
    const id = (await t.client(admin).post('/export/realm')).body.id as number;
    const done = await finished(id);
    expect((await t.client(admin).delete('/export/realm/999999')).body.msg).toBe('Invalid data export ID');
    expect((await t.client(alice).delete(`/export/realm/${id}`)).body.code).toBe('UNAUTHORIZED_PRINCIPAL');
    expect((await t.client(admin).delete(`/export/realm/${id}`)).status).toBe(200);
    expect((await get(t.baseUrl, done.export_url)).status).toBe(404);
    const after = (await t.client(admin).get('/export/realm')).body.exports.find((e: any) => e.id === id);
    expect(after).toMatchObject({ export_url: null, pending: false, deleted_timestamp: expect.any(Number) });
    expect((await t.client(admin).delete(`/export/realm/${id}`)).body.msg).toBe('Export already deleted');
  });
});

describe('export → manage import → a fresh server', () => {
  it('keeps users, channels, messages, reactions, uploads and avatars; a public export has no private data', async () => {
    const id = (await t.client(admin).post('/export/realm')).body.id as number;
    const done = await finished(id);
    const archive = (await get(t.baseUrl, done.export_url)).bytes;

    const dataDir = mkdtempSync(join(tmpdir(), 'parley-import-'));
    let fresh: TestServer | undefined;
    try {
      const archivePath = join(dataDir, 'export.tar.gz');
      writeFileSync(archivePath, archive);
      const manage = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'manage.ts', ...args], {
        cwd: join(import.meta.dirname, '..', '..'), env: { ...process.env, PARLEY_DATA_DIR: dataDir, DATABASE_URL: '', PARLEY_S3_BUCKET: '' }, encoding: 'utf8',
      });
      // The fresh server's own organization, as the test server expects it; the import goes beside it.
      expect(manage('create-realm', '', 'Fresh', ADMIN_EMAIL, ADMIN_PASSWORD).status).toBe(0);
      const run = manage('import', archivePath, '--subdomain', 'imported');
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/Imported organization \d+ 'Test Org' \(subdomain 'imported'\): \d+ users, 2 channels, 2 messages, \d+ files/);

      fresh = await startTestServer({ dataDir, databaseUrl: undefined });
      const host = 'imported.localhost';
      const login = async (who: MadeUser) => {
        const key = await fresh!.client(undefined, host).post('/fetch_api_key', { username: who.email, password: 'pw-' + who.email });
        expect(key.status, JSON.stringify(key.body)).toBe(200);
        expect(key.body.api_key).not.toBe(who.apiKey);
        return { email: key.body.email, apiKey: key.body.api_key, userId: key.body.user_id } as Credentials;
      };
      const [alice2, bob2] = [await login(alice), await login(bob)];

      const users = async (s: TestServer, who: Credentials, h?: string) =>
        (await s.client(who, h).get('/users')).body.members.map((m: any) => [m.email, m.full_name, m.role, m.is_bot]).sort();
      expect(await users(fresh, alice2, host)).toEqual(await users(t, alice));

      const channels = async (s: TestServer, who: Credentials, h?: string) => (await s.client(who, h).get('/users/me/subscriptions')).body.subscriptions.map((c: any) => c.name).sort();
      // The public export leaves private channels out.
      expect(await channels(fresh, alice2, host)).toEqual((await channels(t, alice)).filter((n: string) => n !== 'secret'));

      const messages = async (s: TestServer, who: Credentials, h?: string) => (await s.client(who, h).get('/messages', {
        anchor: 'oldest', num_before: 0, num_after: 100, apply_markdown: 'false', narrow: JSON.stringify([{ operator: 'channel', operand: 'lobby' }]),
      })).body.messages.map((m: any) => ({
        sender: m.sender_email, topic: m.subject, content: m.content.replace(/\/user_uploads\/\d+\//, '/user_uploads/N/'), time: m.timestamp,
        reactions: m.reactions.map((r: any) => r.emoji_name),
      }));
      const before = await messages(t, alice);
      const after = await messages(fresh, alice2, host);
      expect(after).toEqual(before);
      expect(after).toHaveLength(2);
      // No direct messages or private channel messages in a public export.
      const dms = await fresh.client(alice2, host).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: '[{"operator":"is","operand":"dm"}]' });
      expect(dms.body.messages).toEqual([]);

      // The upload moved to the new organization's ID, readable by a subscriber there.
      const linked = (await fresh.client(bob2, host).get('/messages', { anchor: 'oldest', num_before: 0, num_after: 1, apply_markdown: 'false', narrow: '[{"operator":"channel","operand":"lobby"}]' })).body.messages[0].content as string;
      const newUrl = /\((\/user_uploads\/[^)]+)\)/.exec(linked)![1]!;
      const newRealmId = Number(newUrl.split('/')[2]);
      expect(newUrl).toBe(uploadUrl.replace(`/user_uploads/${t.realmId}/`, `/user_uploads/${newRealmId}/`));
      const file = await get(fresh.baseUrl, newUrl, bob2, host);
      expect(file.status).toBe(200);
      expect(file.bytes.toString()).toBe('the notes\n');
      const attachments = await fresh.client(alice2, host).get('/attachments');
      expect(attachments.body.attachments).toHaveLength(1);

      // Alice's uploaded avatar came along.
      const me = (await fresh.client(alice2, host).get('/users/me')).body;
      expect(me.avatar_url).toMatch(new RegExp(`^/user_avatars/${newRealmId}/[0-9a-f]{40}\\.png\\?version=2$`));
      expect((await get(fresh.baseUrl, me.avatar_url, undefined, host)).status).toBe(200);
    } finally {
      await fresh?.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('the export rate limit', () => {
  it('refuses a sixth export within a week, as Zulip does', async () => {
    const recent = await t.db.realmExport.count({ where: { realmId: t.realmId } });
    for (let i = recent; i < 5; i++) await finished((await t.client(admin).post('/export/realm')).body.id);
    const res = await t.client(admin).post('/export/realm');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Exceeded rate limit.' });
  });
});
