// Files through the real Python `zulip` package (a python-zulip-api checkout, as
// scripts/clients/zulip-api-examples.py uses it; never part of this repository): upload_file,
// send_message linking the upload, get_attachments, an avatar through call_endpoint, and
// remove_attachment; the file then downloaded by another subscriber, refused to a non-subscriber and
// to another organization, its thumbnail made. Skipped without the checkout or Debian's python3.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { startTestServer, type TestServer } from '../support/server.ts';
import { makeChannel, makeOtherRealmOwner, makeUser, type MadeUser } from '../support/factories.ts';
import type { Credentials } from '../support/client.ts';

const CLIENTS_SRC = process.env.CLIENTS_SRC ?? '/work/clients-src';
const ZULIP_API_SRC = process.env.ZULIP_API_SRC ?? join(CLIENTS_SRC, 'python-zulip-api');
const PYTHON = '/usr/bin/python3';
const available = existsSync(join(ZULIP_API_SRC, 'zulip', 'zulip', '__init__.py')) && existsSync(PYTHON);

/** The Python client's side: each step's response, as JSON on stdout. */
const SCRIPT = `
import json, sys
sys.path.insert(0, sys.argv[1])
import zulip
args = json.loads(sys.argv[2])
client = zulip.Client(email=args["email"], api_key=args["api_key"], site=args["site"], client="ParleyTest")
out = {}
with open(args["image"], "rb") as fp:
    out["upload"] = client.upload_file(fp)
with open(args["text"], "rb") as fp:
    out["upload_text"] = client.upload_file(fp)
out["send"] = client.send_message({"type": "stream", "to": "vault", "topic": "files",
    "content": "The plan: [plan.png](%s) and [notes](%s)" % (out["upload"]["uri"], out["upload_text"]["uri"])})
out["attachments"] = client.get_attachments()
with open(args["image"], "rb") as fp:
    out["avatar"] = client.call_endpoint(url="users/me/avatar", method="POST", files=[fp])
text_id = [a["id"] for a in out["attachments"]["attachments"] if a["name"].endswith("notes.txt")][0]
out["remove"] = client.call_endpoint(url="attachments/%d" % text_id, method="DELETE")
print(json.dumps(out))
`;

let t: TestServer;
let alice: MadeUser;
let bob: MadeUser;
let carol: MadeUser;
let dir: string;

function get(url: string, who?: Credentials, host?: string) {
  return new Promise<{ status: number; bytes: Buffer }>((resolve, reject) => {
    const headers: Record<string, string> = {
      ...(who ? { authorization: 'Basic ' + Buffer.from(`${who.email}:${who.apiKey}`).toString('base64') } : {}),
      ...(host ? { host } : {}),
    };
    http.get(new URL(url, t.baseUrl), { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, bytes: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

beforeAll(async () => {
  if (!available) return;
  t = await startTestServer();
  alice = await makeUser(t, { fullName: 'Alice' });
  bob = await makeUser(t, { fullName: 'Bob' });
  carol = await makeUser(t, { fullName: 'Carol' });
  await makeChannel(t.client(alice), 'vault', { invite_only: true, principals: [alice.userId, bob.userId] });
  dir = mkdtempSync(join(tmpdir(), 'parley-python-upload-'));
});
afterAll(async () => {
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!available)('python-zulip: upload_file and attachments, run for real', () => {
  it('uploads, links, lists, sets an avatar and removes an attachment; the rules hold for others', async () => {
    const image = await sharp({ create: { width: 1000, height: 600, channels: 3, background: '#228844' } }).png().toBuffer();
    writeFileSync(join(dir, 'plan.png'), image);
    writeFileSync(join(dir, 'notes.txt'), 'step one\n');
    // Asynchronously: the server answering the client runs in this process.
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(PYTHON, ['-c', SCRIPT, join(ZULIP_API_SRC, 'zulip'), JSON.stringify({
        email: alice.email, api_key: alice.apiKey, site: t.baseUrl, image: join(dir, 'plan.png'), text: join(dir, 'notes.txt'),
      })]);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c) => (stdout += c));
      child.stderr.on('data', (c) => (stderr += c));
      child.on('error', reject);
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout);
    for (const step of ['upload', 'upload_text', 'send', 'attachments', 'avatar', 'remove']) expect(out[step].result, `${step}: ${JSON.stringify(out[step])}`).toBe('success');
    expect(out.upload.filename).toBe('plan.png');
    const url = out.upload.url as string;
    expect(out.attachments.attachments.find((a: any) => a.name === 'plan.png').messages).toEqual([{ id: out.send.id, date_sent: expect.any(Number) }]);

    // Bob is subscribed to the private channel: he reads it; Carol is not; another organization knows nothing of it.
    const asBob = await get(url, bob);
    expect(asBob.status).toBe(200);
    expect(asBob.bytes.equals(image)).toBe(true);
    expect((await get(url, carol)).status).toBe(403);
    const outsider = await makeOtherRealmOwner(t, 'pyother');
    expect((await get(url, outsider, outsider.host)).status).toBe(404);

    // The thumbnail, made in the background, and the message re-rendered with it.
    await t.server.thumbnails?.idle();
    const pathId = url.slice('/user_uploads/'.length);
    const thumb = await get(`/user_uploads/thumbnail/${pathId}/840x560.webp`, bob);
    expect(thumb.status).toBe(200);
    expect(await sharp(thumb.bytes).metadata()).toMatchObject({ format: 'webp', width: 840, height: 504 });
    const message = (await t.client(bob).get(`/messages/${out.send.id}`)).body.message;
    expect(message.content).toContain(`/user_uploads/thumbnail/${pathId}/840x560.webp`);

    // The removed text file is gone; the avatar took.
    const textUrl = out.upload_text.url as string;
    expect((await get(textUrl, alice)).status).toBe(404);
    expect(out.avatar.avatar_url).toMatch(/^\/user_avatars\/\d+\/[0-9a-f]{40}\.png\?version=2$/);
    expect((await get(out.avatar.avatar_url)).status).toBe(200);
  }, 180_000);
});
