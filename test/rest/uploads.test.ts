// Uploads and attachments, as Zulip serves them: POST /user_uploads, the files at /user_uploads/...
// with Zulip's access rules, temporary URLs, GET/DELETE /attachments, messages claiming uploads, quota.
import { beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeChannel, makeOtherRealmOwner, makeUser, sendDirect, sendToChannel, updateRealm } from '../support/factories.ts';
import { validateEvent, validateResponse } from '../support/openapi.ts';
import type { Credentials } from '../support/client.ts';
import { multipart } from '../clients/support.ts';
import { openQueue } from '../support/events.ts';
import { ok, fails } from '../graphql/helpers.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer();
const { alice, bob, carol, guest } = useTeam(t, ['alice', 'bob', 'carol', 'guest']);

const basic = (who: Credentials) => 'Basic ' + Buffer.from(`${who.email}:${who.apiKey}`).toString('base64');

/** POST /user_uploads as the Python client sends it: one part named after the file, no Content-Type. */
async function upload(who: Credentials, filename: string, bytes: Buffer, contentType?: string) {
  const res = await multipart(t.baseUrl, 'POST', '/user_uploads', who, {}, [{ name: filename, filename, bytes, contentType }]);
  validateResponse('POST', '/user_uploads', res.status, res.body);
  return res;
}

async function uploaded(who: Credentials, filename: string, bytes: Buffer = Buffer.from(`contents of ${filename}\n`), contentType?: string) {
  const res = await upload(who, filename, bytes, contentType);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { url: string; uri: string; filename: string };
}

/** GET of a file URL (outside /api/v1), with credentials if given, at the root organization or `host`. */
function download(url: string, who?: Credentials, host?: string) {
  return new Promise<{ status: number; headers: { get(name: string): string | null }; bytes: Buffer }>((resolve, reject) => {
    const headers: Record<string, string> = { ...(who ? { authorization: basic(who) } : {}), ...(host ? { host } : {}) };
    http.get(`${t.baseUrl}${url}`, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({
        status: res.statusCode!,
        headers: { get: (name) => (res.headers[name.toLowerCase()] as string | undefined) ?? null },
        bytes: Buffer.concat(chunks),
      }));
    }).on('error', reject);
  });
}

async function attachmentsOf(who: Credentials) {
  const res = await t.client(who).get('/attachments');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { attachments: any[]; upload_space_used: number };
}

/** The upload limits are the server's (Zulip sets them by plan and settings.py, not through the API). */
async function setRealm(data: Record<string, unknown>) {
  await t.db.realm.update({ where: { id: t.realmId }, data });
}

beforeAll(async () => {
  await makeChannel(t.client(alice), 'public', { principals: [alice.userId, bob.userId] });
  await makeChannel(t.client(alice), 'secret', { invite_only: true, history_public_to_subscribers: true, principals: [alice.userId, bob.userId] });
  await makeChannel(t.client(alice), 'secret-history', { invite_only: true, history_public_to_subscribers: false, principals: [alice.userId] });
});

describe('POST /user_uploads', () => {
  it('stores the file and answers its URL (and the legacy `uri`) and name; the owner downloads it', async () => {
    const queue = await openQueue(t.client(alice), { event_types: '["attachment"]' });
    const body = await uploaded(alice, 'notes.txt', Buffer.from('hello, world\n'));
    expect(body.url).toMatch(new RegExp(`^/user_uploads/${t.realmId}/[0-9a-f]{1,2}/[A-Za-z0-9_-]{24}/notes\\.txt$`));
    expect(body.uri).toBe(body.url);
    expect(body.filename).toBe('notes.txt');
    const file = await download(body.url, alice);
    expect(file.status).toBe(200);
    expect(file.bytes.toString()).toBe('hello, world\n');
    // No Content-Type was sent: guessed from the name, as Zulip does.
    expect(file.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(file.headers.get('content-disposition')).toBe('inline; filename="notes.txt"');
    const [event] = await queue.events();
    expect(event).toMatchObject({
      type: 'attachment', op: 'add', upload_space_used: expect.any(Number),
      attachment: { id: expect.any(Number), name: 'notes.txt', path_id: body.url.slice('/user_uploads/'.length), size: 13, messages: [] },
    });
  });

  it('keeps the uploaded name but a sanitized one in the URL', async () => {
    const body = await uploaded(alice, 'my report (final).PDF', Buffer.from('%PDF-1.4\n'));
    expect(body.filename).toBe('my report (final).PDF');
    expect(body.url.split('/').pop()).toBe('my-report-final.PDF');
    const file = await download(body.url, alice);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    // A name longer than a file system takes keeps its start and its extension (found by the fuzz).
    const long = await uploaded(alice, `${'ü'.repeat(400)}.txt`);
    expect(long.filename).toBe(`${'ü'.repeat(400)}.txt`);
    expect(decodeURIComponent(long.url.split('/').pop()!)).toBe(`${'ü'.repeat(88)}.txt`);
    expect((await download(long.url, alice)).status).toBe(200);
    const named = await uploaded(alice, 'Übersicht über.txt');
    expect(named.url.split('/').pop()).toBe('Übersicht-über.txt');
    expect((await download(encodeURI(named.url), alice)).status).toBe(200);
  });

  it('serves types a browser could run as downloads', async () => {
    const body = await uploaded(alice, 'page.html', Buffer.from('<script>alert(1)</script>'), 'text/html');
    const file = await download(body.url, alice);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="page.html"');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    const forced = await download(body.url.replace('/user_uploads/', '/user_uploads/download/'), alice);
    expect(forced.status).toBe(200);
  });

  it('takes exactly one file', async () => {
    const none = await multipart(t.baseUrl, 'POST', '/user_uploads', alice, { note: 'x' });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'You must specify a file to upload' });
    const two = await multipart(t.baseUrl, 'POST', '/user_uploads', alice, {}, [
      { name: 'a', filename: 'a.txt', bytes: Buffer.from('a') }, { name: 'b', filename: 'b.txt', bytes: Buffer.from('b') },
    ]);
    expect(two.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'You may only upload one file at a time' });
  });

  it('refuses files over max_file_upload_size_mib with 413 and Zulip\'s message', async () => {
    await setRealm({ maxFileUploadSizeMib: 1 });
    try {
      const reg = await t.client(alice).post('/register', { fetch_event_types: '["realm"]' });
      expect(reg.body.max_file_upload_size_mib).toBe(1);
      const res = await upload(alice, 'big.bin', Buffer.alloc(1024 * 1024 + 1, 1));
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Uploaded file is larger than the allowed limit of 1 MiB' });
      // Exactly the limit is fine.
      expect((await upload(alice, 'limit.bin', Buffer.alloc(1024 * 1024, 1))).status).toBe(200);
    } finally {
      await setRealm({ maxFileUploadSizeMib: 25 });
    }
  });

  it('refuses an oversized body it was told the length of before reading any of it', async () => {
    // The headers announce 30 MiB; no byte of the body is ever sent. The answer comes anyway.
    const answer = await headersOnly({ authorization: basic(alice), 'content-length': String(30 * 1024 * 1024) });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ msg: 'Uploaded file is larger than the allowed limit of 25 MiB' });
  });

  it('refuses a streamed (chunked) body whose file passes the limit, keeping none of it', async () => {
    await setRealm({ maxFileUploadSizeMib: 1 });
    try {
      const boundary = 'chunkedboundary';
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(`${t.baseUrl}/api/v1/user_uploads`, {
          method: 'POST', agent: false,
          headers: { authorization: basic(alice), 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked' },
        }, (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        });
        // The server stops reading and closes the connection: later writes may fail; the answer counts.
        req.on('error', (error) => (['EPIPE', 'ECONNRESET'].includes((error as NodeJS.ErrnoException).code!) ? undefined : reject(error)));
        req.write(`--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="f.bin"\r\n\r\n`);
        // Keep sending well past the limit: the answer comes once the client is done.
        let sent = 0;
        const pump = () => {
          if (sent > 8 * 1024 * 1024 || req.destroyed) return req.end();
          sent += 256 * 1024;
          req.write(Buffer.alloc(256 * 1024, 2), () => setImmediate(pump));
        };
        pump();
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body).msg).toBe('Uploaded file is larger than the allowed limit of 1 MiB');
    } finally {
      await setRealm({ maxFileUploadSizeMib: 25 });
    }
  });

  it('authenticates before reading the body: no credentials or bad ones are answered at once', async () => {
    const anonymous = await headersOnly({ 'content-length': String(20 * 1024 * 1024) });
    expect(anonymous.status).toBe(401);
    const wrong = await headersOnly({ authorization: basic({ ...alice, apiKey: 'x'.repeat(32) }), 'content-length': String(20 * 1024 * 1024) });
    expect(wrong.status).toBe(401);
  });

  it('leaves nothing in the temporary directory', async () => {
    const size = 3 * 1024 * 1024 + 7;
    const sameSize = () => readdirSync(tmpdir()).filter((name) => {
      try {
        return statSync(join(tmpdir(), name)).size === size;
      } catch {
        return false;
      }
    });
    const before = sameSize();
    await uploaded(alice, 'large.bin', Buffer.alloc(size, 3));
    await upload({ ...alice, apiKey: 'y'.repeat(32) }, 'refused.bin', Buffer.alloc(size, 3));
    await setRealm({ maxFileUploadSizeMib: 1 });
    await upload(alice, 'too-large.bin', Buffer.alloc(size, 3));
    await setRealm({ maxFileUploadSizeMib: 25 });
    expect(sameSize()).toEqual(before);
  });

  it('keeps the organization within its upload quota, also under parallel uploads', async () => {
    const used = (await attachmentsOf(alice)).upload_space_used;
    await setRealm({ uploadQuotaMib: Math.ceil((used + 600 * 1024) / (1024 * 1024)) });
    try {
      const room = Math.ceil((used + 600 * 1024) / (1024 * 1024)) * 1024 * 1024 - used;
      const piece = Math.floor(room / 2) + 1; // two fit no more
      const results = await Promise.all([1, 2, 3].map((i) => upload(i === 2 ? bob : alice, `q${i}.bin`, Buffer.alloc(piece, i))));
      const accepted = results.filter((r) => r.status === 200);
      expect(accepted).toHaveLength(1);
      for (const refused of results.filter((r) => r.status !== 200)) {
        expect(refused.body).toMatchObject({ result: 'error', code: 'REALM_UPLOAD_QUOTA', msg: "Upload would exceed your organization's upload quota." });
      }
      const reg = await t.client(alice).post('/register', { fetch_event_types: '["realm"]' });
      expect(reg.body.realm_upload_quota_mib).toBeGreaterThan(0);
    } finally {
      await setRealm({ uploadQuotaMib: null });
    }
  });
});

/** A POST /user_uploads whose body never comes: resolves with the answer given to the headers alone. */
function headersOnly(headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${t.baseUrl}/api/v1/user_uploads`, {
      method: 'POST', agent: false,
      headers: { 'content-type': 'multipart/form-data; boundary=never', ...headers },
    }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode!, body });
      });
    });
    req.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error)));
    req.flushHeaders();
    setTimeout(() => reject(new Error('no answer before the body')), 5000).unref();
  });
}

describe('GET /user_uploads/{realm_id}/{path}: who may read an upload', () => {
  it('only its owner before a message links it', async () => {
    const { url } = await uploaded(alice, 'private.txt');
    expect((await download(url, alice)).status).toBe(200);
    const other = await download(url, bob);
    expect(other.status).toBe(403);
    expect(other.bytes.toString()).toBe('<p>You are not authorized to view this file.</p>');
  });

  it('every member once linked in a public channel; not guests, not the anonymous', async () => {
    const { url } = await uploaded(alice, 'public.txt');
    await sendToChannel(t.client(alice), 'public', 'files', `[public.txt](${url})`);
    expect((await download(url, bob)).status).toBe(200);
    expect((await download(url, carol)).status).toBe(200); // not subscribed: public history
    expect((await download(url, guest)).status).toBe(403);
    const anonymous = await download(url);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic/);
  });

  it('subscribers of a private channel; not others', async () => {
    const { url } = await uploaded(alice, 'secret.txt');
    await sendToChannel(t.client(alice), 'secret', 'files', `[secret.txt](${url})`);
    expect((await download(url, bob)).status).toBe(200);
    expect((await download(url, carol)).status).toBe(403);
    // Subscribing later: the history is public to subscribers.
    await t.client(alice).post('/users/me/subscriptions', { subscriptions: [{ name: 'secret' }], principals: [carol.userId] });
    expect((await download(url, carol)).status).toBe(200);
  });

  it('in a private channel without public history: only those who received the message', async () => {
    const { url } = await uploaded(alice, 'history.txt');
    await sendToChannel(t.client(alice), 'secret-history', 'files', `[history.txt](${url})`);
    await t.client(alice).post('/users/me/subscriptions', { subscriptions: [{ name: 'secret-history' }], principals: [bob.userId] });
    expect((await download(url, bob)).status).toBe(403);
  });

  it('the participants of a direct message; not others', async () => {
    const { url } = await uploaded(alice, 'dm.txt');
    await sendDirect(t.client(alice), [bob.userId], `[dm.txt](${url})`);
    expect((await download(url, bob)).status).toBe(200);
    expect((await download(url, carol)).status).toBe(403);
  });

  it('a message linking an upload its sender cannot read shares nothing', async () => {
    const { url } = await uploaded(alice, 'not-yours.txt');
    await sendToChannel(t.client(bob), 'public', 'files', `[stolen](${url})`);
    expect((await download(url, carol)).status).toBe(403);
    expect((await attachmentsOf(alice)).attachments.find((a) => url.endsWith(a.path_id))!.messages).toEqual([]);
  });

  it('nothing across organizations', async () => {
    const { url } = await uploaded(alice, 'ours.txt');
    await sendToChannel(t.client(alice), 'public', 'files', `[ours.txt](${url})`);
    const outsider = await makeOtherRealmOwner(t, 'elsewhere');
    // Their own organization does not know the file.
    expect((await download(url, outsider, outsider.host)).status).toBe(404);
    // Here their credentials are not accepted at all.
    const here = await download(url, outsider);
    expect(here.status).toBe(400);
    expect(JSON.parse(here.bytes.toString())).toMatchObject({ msg: 'Account is not associated with this subdomain' });
    // Nor is a temporary URL given for it there.
    const path = url.slice('/user_uploads/'.length);
    expect((await t.client(outsider, outsider.host).get(`/user_uploads/${path}`)).status).toBe(404);
  });

  it('spectators read uploads linked in web-public channels when the organization allows them', async () => {
    await updateRealm(t, { enable_spectator_access: true });
    try {
      await makeChannel(t.client(t.owner), 'web', { is_web_public: true });
      const { url } = await uploaded(t.owner, 'web.txt');
      await sendToChannel(t.client(t.owner), 'web', 'files', `[web.txt](${url})`);
      expect((await download(url)).status).toBe(200);
      const { url: hidden } = await uploaded(alice, 'hidden.txt');
      await sendToChannel(t.client(alice), 'public', 'files', `[hidden.txt](${hidden})`);
      expect((await download(hidden)).status).toBe(401);
    } finally {
      await updateRealm(t, { enable_spectator_access: false });
    }
  });

  it('answers 404 for paths that are no upload', async () => {
    expect((await download(`/user_uploads/${t.realmId}/00/nothing/here.txt`, alice)).status).toBe(404);
    expect((await download(`/user_uploads/${t.realmId}/..%2F..%2Fetc/passwd`, alice)).status).toBe(404);
  });
});

describe('GET /api/v1/user_uploads/{realm_id_str}/{filename}: temporary URL', () => {
  it('gives a URL that works without credentials', async () => {
    const { url } = await uploaded(alice, 'temp.txt', Buffer.from('temporary'));
    const path = url.slice('/user_uploads/'.length);
    const res = await t.client(alice).get(`/user_uploads/${path}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.url).toMatch(/^\/user_uploads\/temporary\/[0-9A-F]+\/temp\.txt$/);
    const file = await download(res.body.url);
    expect(file.status).toBe(200);
    expect(file.bytes.toString()).toBe('temporary');
  });

  it('only to users who may read the file', async () => {
    const { url } = await uploaded(alice, 'temp-private.txt');
    const path = url.slice('/user_uploads/'.length);
    const res = await t.client(bob).get(`/user_uploads/${path}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', msg: 'You are not authorized to view this file.' });
    expect((await t.client(bob).get(`/user_uploads/${t.realmId}/00/none/x.txt`)).status).toBe(404);
    expect((await t.client().get(`/user_uploads/${path}`)).status).toBe(401);
  });

  it('refuses forged, altered, renamed and expired tokens', async () => {
    const { url } = await uploaded(alice, 'signed.txt');
    const path = url.slice('/user_uploads/'.length);
    const temporary = (await t.client(alice).get(`/user_uploads/${path}`)).body.url as string;
    const [, , , token] = temporary.split('/');
    const altered = token!.slice(0, -2) + (token!.endsWith('41') ? '42' : '41');
    for (const bad of [`/user_uploads/temporary/${altered}/signed.txt`, '/user_uploads/temporary/ABCD/signed.txt']) {
      const res = await download(bad);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.bytes.toString())).toMatchObject({ result: 'error', msg: 'Invalid token' });
    }
    // A 32-byte signature's last base64 character carries 4 bits: its sibling differing only in
    // the spare bits decodes to the same bytes, and must still be refused.
    const text = Buffer.from(token!, 'hex').toString();
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sibling = alphabet[alphabet.indexOf(text.at(-1)!) ^ 1]!;
    const respelled = Buffer.from(text.slice(0, -1) + sibling).toString('hex').toUpperCase();
    expect(Buffer.from(text.split(':').at(-1)!, 'base64url')).toEqual(Buffer.from((text.slice(0, -1) + sibling).split(':').at(-1)!, 'base64url'));
    expect((await download(`/user_uploads/temporary/${respelled}/signed.txt`)).status).toBe(400);
    const renamed = await download(`/user_uploads/temporary/${token}/other.txt`);
    expect(JSON.parse(renamed.bytes.toString())).toMatchObject({ msg: 'Invalid filename' });
    const { pathIdFromToken } = await import('../../resolvers/uploads/temporary.ts');
    await expect(pathIdFromToken(t.db, token!, 'signed.txt', Date.now() + 61_000)).rejects.toThrow('Invalid token');
    await expect(pathIdFromToken(t.db, token!, 'signed.txt')).resolves.toBe(path);
  });
});

describe('GET /attachments', () => {
  it('lists the viewer\'s uploads with the messages linking them, and the organization\'s space used', async () => {
    const dave = await makeUser(t, { fullName: 'Dave' });
    const { url } = await uploaded(dave, 'listed.txt', Buffer.from('12345'));
    const messageId = await sendToChannel(t.client(dave), 'public', 'files', `[listed.txt](${url})`);
    const { attachments, upload_space_used: used } = await attachmentsOf(dave);
    expect(attachments).toEqual([{
      id: expect.any(Number), name: 'listed.txt', path_id: url.slice('/user_uploads/'.length), size: 5,
      create_time: expect.any(Number), messages: [{ id: messageId, date_sent: expect.any(Number) }],
    }]);
    expect(Number.isInteger(attachments[0].create_time / 1000)).toBe(true);
    const total = await t.db.attachment.aggregate({ where: { realmId: t.realmId }, _sum: { size: true } });
    expect(used).toBe(total._sum.size);
    expect((await attachmentsOf(bob)).attachments.every((a) => a.name !== 'listed.txt')).toBe(true);
  });
});

describe('DELETE /attachments/{attachment_id}', () => {
  it('the owner deletes an upload: its file is gone and an attachment remove event says so', async () => {
    const { url } = await uploaded(alice, 'doomed.txt');
    const id = (await attachmentsOf(alice)).attachments.find((a) => url.endsWith(a.path_id))!.id;
    expect((await t.client(bob).delete(`/attachments/${id}`)).body).toMatchObject({ result: 'error', msg: 'Invalid attachment' });
    const queue = await openQueue(t.client(alice), { event_types: '["attachment"]' });
    const res = await t.client(alice).delete(`/attachments/${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await download(url, alice)).status).toBe(404);
    const [event] = await queue.events();
    expect(event).toMatchObject({ type: 'attachment', op: 'remove', attachment: { id }, upload_space_used: expect.any(Number) });
    expect((await t.client(alice).delete(`/attachments/${id}`)).body).toMatchObject({ msg: 'Invalid attachment' });
  });
});

describe('messages claim the uploads they link', () => {
  it('sending: an attachment update event lists the message; has:attachment finds it', async () => {
    const { url } = await uploaded(alice, 'claimed.txt');
    const queue = await openQueue(t.client(alice), { event_types: '["attachment"]' });
    const id = await sendToChannel(t.client(alice), 'public', 'claims', `see [claimed.txt](${url})`);
    const [event] = await queue.events();
    expect(event).toMatchObject({ type: 'attachment', op: 'update', attachment: { path_id: url.slice(14), messages: [{ id, date_sent: expect.any(Number) }] } });
    const found = await t.client(alice).get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'has', operand: 'attachment' }, { operator: 'topic', operand: 'claims' }] });
    expect(found.body.messages.map((m: any) => m.id)).toEqual([id]);
    const plain = await sendToChannel(t.client(alice), 'public', 'claims', `[not ours](/user_uploads/${t.realmId}/00/none/x.txt)`);
    const again = await t.client(alice).get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'has', operand: 'attachment' }, { operator: 'topic', operand: 'claims' }] });
    expect(again.body.messages.map((m: any) => m.id)).not.toContain(plain);
  });

  it('editing the link away releases the upload; editing it in claims it', async () => {
    const { url } = await uploaded(alice, 'edited.txt');
    const id = await sendToChannel(t.client(alice), 'public', 'edits', `[edited.txt](${url})`);
    expect((await download(url, bob)).status).toBe(200);
    const queue = await openQueue(t.client(alice), { event_types: '["attachment"]' });
    const released = await t.client(alice).patch(`/messages/${id}`, { content: 'nothing here now' });
    expect(released.status).toBe(200);
    validateResponse('PATCH', '/messages/{message_id}', released.status, released.body);
    // The editor learns which of their uploads no message links any more (Zulip's detached_uploads).
    expect(released.body.detached_uploads).toEqual([expect.objectContaining({ name: 'edited.txt', path_id: url.slice(14), messages: [] })]);
    expect((await download(url, bob)).status).toBe(403);
    expect((await queue.events())[0]).toMatchObject({ op: 'update', attachment: { messages: [] } });
    const reclaimed = await t.client(alice).patch(`/messages/${id}`, { content: `back: [edited.txt](${url})` });
    expect(reclaimed.body).toMatchObject({ result: 'success', detached_uploads: [] });
    expect((await download(url, bob)).status).toBe(200);
    expect((await queue.events())[0]).toMatchObject({ op: 'update', attachment: { messages: [{ id }] } });
  });

  it('deleting the last message linking an upload deletes the upload', async () => {
    const { url } = await uploaded(alice, 'last.txt');
    const first = await sendToChannel(t.client(alice), 'public', 'deletions', `[last.txt](${url})`);
    const second = await sendDirect(t.client(alice), [bob.userId], `[last.txt](${url})`);
    expect((await t.client(alice).delete(`/messages/${first}`)).status).toBe(200);
    expect((await download(url, alice)).status).toBe(200);
    const queue = await openQueue(t.client(alice), { event_types: '["attachment"]' });
    expect((await t.client(alice).delete(`/messages/${second}`)).status).toBe(200);
    expect((await download(url, alice)).status).toBe(404);
    expect((await queue.events()).map((e) => e.op)).toEqual(['remove']);
  });
});

describe('GraphQL: uploadFile, attachments, uploadTemporaryUrl, deleteAttachment', () => {
  it('does what the REST endpoints do', async () => {
    const data = await ok(t, 'mutation($f: [FileUpload!]!) { uploadFile(files: $f) { url filename } }',
      { f: [{ fileName: 'graph.txt', base64: Buffer.from('via graphql').toString('base64') }] }, alice);
    expect(data.uploadFile.filename).toBe('graph.txt');
    const file = await download(data.uploadFile.url, alice);
    expect(file.bytes.toString()).toBe('via graphql');
    const path = data.uploadFile.url.slice('/user_uploads/'.length);
    const [realm, ...rest] = path.split('/');
    const temporary = await ok(t, 'query($r: String!, $f: String!) { uploadTemporaryUrl(realmIdStr: $r, filename: $f) }', { r: realm, f: rest.join('/') }, alice);
    expect((await download(temporary.uploadTemporaryUrl)).status).toBe(200);
    const refused = await fails(t, 'query($r: String!, $f: String!) { uploadTemporaryUrl(realmIdStr: $r, filename: $f) }', { r: realm, f: rest.join('/') }, bob);
    expect(refused.error.message).toBe('You are not authorized to view this file.');
    const list = await ok(t, '{ attachments { uploadSpaceUsed attachments { id name pathId size createTime messages { id dateSent } } } }', {}, alice);
    const mine = list.attachments.attachments.find((a: any) => a.pathId === path);
    expect(mine).toMatchObject({ name: 'graph.txt', size: 11, messages: [] });
    await ok(t, 'mutation($id: Int!) { deleteAttachment(attachmentId: $id) }', { id: mine.id }, alice);
    expect((await download(data.uploadFile.url, alice)).status).toBe(404);
    const tooMany = await fails(t, 'mutation($f: [FileUpload!]!) { uploadFile(files: $f) { url } }', { f: [] }, alice);
    expect(tooMany.error.message).toBe('You must specify a file to upload');
  });
});

describe('attachment events', () => {
  it('match Zulip\'s schema', async () => {
    const queue = await openQueue(t.client(carol), { event_types: '["attachment"]' });
    const { url } = await uploaded(carol, 'schema.txt');
    await sendToChannel(t.client(carol), 'public', 'schema', `[schema.txt](${url})`);
    const events = await queue.events();
    expect(events.map((e) => e.op)).toEqual(['add', 'update']);
    for (const event of events) validateEvent(event as any);
  });
});
