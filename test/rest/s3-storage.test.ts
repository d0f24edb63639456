// Files in an S3-compatible bucket: a real local S3 service (s3rver, on the filesystem, started by
// the test) behind PARLEY_S3_*. Uploads, thumbnails, avatars and exports land in the bucket and are
// served from it; deleting an upload removes its objects. With TEST_DATABASE_URL, two server
// processes share the database and the bucket: a file uploaded through one downloads through the other.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import S3rver from 's3rver';
import sharp from 'sharp';
import { ApiClient, type Credentials } from '../support/client.ts';
import { multipart } from '../clients/support.ts';
import { S3FileStore, type S3Config } from '../../resolvers/files/storage.ts';
import { startServerProcess, type ServerProcess } from '../support/processes.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

let s3: S3rver;
let s3Dir: string;
let s3Config: S3Config;

beforeAll(async () => {
  s3Dir = mkdtempSync(join(tmpdir(), 'parley-s3rver-'));
  s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir });
  const { port } = await s3.run();
  s3Config = { endpoint: `http://127.0.0.1:${port}`, bucket: `parley-${randomBytes(4).toString('hex')}`, accessKey: 'S3RVER', secretKey: 'S3RVER', region: 'us-east-1' };
});
// Registered before the server: afterAll hooks unwind in reverse, so the server closes first.
afterAll(async () => {
  await s3?.close();
  rmSync(s3Dir, { recursive: true, force: true });
});
const t = useTestServer(() => ({ storage: { kind: 's3', ...s3Config } }));
const { alice, bob } = useTeam(t, ['alice', 'bob']);

function get(base: string, url: string, who?: Credentials) {
  return new Promise<{ status: number; bytes: Buffer }>((resolve, reject) => {
    const headers = who ? { authorization: 'Basic ' + Buffer.from(`${who.email}:${who.apiKey}`).toString('base64') } : undefined;
    http.get(new URL(url, base), { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, bytes: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

/** The bucket's keys, read with a client of its own. */
async function bucketKeys(prefix = ''): Promise<string[]> {
  const store = new S3FileStore(s3Config);
  return store.list(prefix);
}

describe('S3 storage', () => {
  it('keeps uploads and their thumbnails in the bucket, serves them, and removes them with the attachment', async () => {
    const image = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#3366cc' } }).png().toBuffer();
    const up = await multipart(t.baseUrl, 'POST', '/user_uploads', alice, {}, [{ name: 'f', filename: 'sky.png', bytes: image }]);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const pathId = (up.body.url as string).slice('/user_uploads/'.length);
    expect(await bucketKeys(`files/${pathId}`)).toEqual([`files/${pathId}`]);
    const file = await get(t.baseUrl, up.body.url, alice);
    expect(file.status).toBe(200);
    expect(file.bytes.equals(image)).toBe(true);
    // Not linked from any message: only its owner reads it.
    expect((await get(t.baseUrl, up.body.url, bob)).status).toBe(403);

    await t.server.thumbnails?.idle();
    expect(await bucketKeys(`thumbnail/${pathId}/`)).toEqual([`thumbnail/${pathId}/840x560.webp`]);
    const thumb = await get(t.baseUrl, `/user_uploads/thumbnail/${pathId}/840x560.webp`, alice);
    expect(thumb.status).toBe(200);
    expect((await sharp(thumb.bytes).metadata()).width).toBe(747);

    const { attachments } = (await t.client(alice).get('/attachments')).body;
    expect((await t.client(alice).delete(`/attachments/${attachments[0].id}`)).status).toBe(200);
    expect(await bucketKeys(`files/${pathId}`)).toEqual([]);
    expect(await bucketKeys(`thumbnail/${pathId}`)).toEqual([]);
  });

  it('keeps avatars in the bucket', async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#cc3366' } }).png().toBuffer();
    const res = await multipart(t.baseUrl, 'POST', '/users/me/avatar', bob, {}, [{ name: 'f', filename: 'b.png', bytes: png }]);
    expect(res.status).toBe(200);
    const key = /\/([0-9a-f]{40})\.png/.exec(res.body.avatar_url)![1];
    expect((await bucketKeys('avatars/')).filter((k) => k.includes(key!))).toHaveLength(2);
    expect((await get(t.baseUrl, res.body.avatar_url)).status).toBe(200);
  });
});

const pgBase = process.env.TEST_DATABASE_URL;

describe.skipIf(!pgBase)('two server processes sharing the database and the bucket', () => {
  const processes: ServerProcess[] = [];
  let dropDatabase = async () => {};
  afterAll(async () => {
    for (const p of processes) await p.stop();
    await dropDatabase();
  });

  it('serves through one what was uploaded through the other', async () => {
    const pg = (await import('pg')).default;
    const name = `parley_test_s3_${process.pid}_${randomBytes(4).toString('hex')}`;
    const run = async (sql: string) => {
      const admin = new pg.Client({ connectionString: pgBase });
      await admin.connect();
      try { await admin.query(sql); } finally { await admin.end(); }
    };
    await run(`CREATE DATABASE ${name}`);
    dropDatabase = () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    const url = new URL(pgBase!);
    url.pathname = `/${name}`;
    const env = {
      DATABASE_URL: url.toString(), PARLEY_ADMIN_EMAIL: 'owner@example.com', PARLEY_ADMIN_PASSWORD: 'two-process-password',
      PARLEY_S3_BUCKET: `shared-${randomBytes(4).toString('hex')}`, PARLEY_S3_ENDPOINT: s3Config.endpoint,
      PARLEY_S3_ACCESS_KEY: 'S3RVER', PARLEY_S3_SECRET_KEY: 'S3RVER', REDIS_URL: '',
    };
    const a = await startServerProcess('a', env);
    processes.push(a);
    const b = await startServerProcess('b', env);
    processes.push(b);
    const key = await new ApiClient(a.baseUrl).post('/fetch_api_key', { username: 'owner@example.com', password: 'two-process-password' });
    const owner: Credentials = { email: key.body.email, apiKey: key.body.api_key, userId: key.body.user_id };
    const body = Buffer.from(`shared through S3 ${randomBytes(8).toString('hex')}\n`);
    const up = await multipart(a.baseUrl, 'POST', '/user_uploads', owner, {}, [{ name: 'f', filename: 'shared.txt', bytes: body }]);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const viaB = await get(b.baseUrl, up.body.url, owner);
    expect(viaB.status).toBe(200);
    expect(viaB.bytes.equals(body)).toBe(true);
    const avatar = await multipart(b.baseUrl, 'POST', '/users/me/avatar', owner, {}, [{ name: 'f', filename: 'o.png', bytes: await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).png().toBuffer() }]);
    expect((await get(a.baseUrl, avatar.body.avatar_url)).status).toBe(200);
  }, 180_000);
});
