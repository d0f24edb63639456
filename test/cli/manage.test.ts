// The management CLI, run as operators run it: a separate process on the server's data directory.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let dataDir: string;

function manage(...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'manage.ts', ...args], {
    cwd: join(import.meta.dirname, '..', '..'),
    env: { ...process.env, PARLEY_DATA_DIR: dataDir, DATABASE_URL: '' },
    encoding: 'utf8',
  });
  return { code: result.status, out: result.stdout.trim(), err: result.stderr.trim() };
}

beforeAll(() => { dataDir = mkdtempSync(join(tmpdir(), 'parley-manage-')); });
afterAll(() => { rmSync(dataDir, { recursive: true, force: true }); });

describe('npm run manage', () => {
  it('creates an organization and prints its owner', () => {
    const res = manage('create-realm', '', 'Acme', 'boss@acme.example', 'boss-password');
    expect(res.code).toBe(0);
    expect(res.out).toContain("Created organization 1 'Acme' with owner boss@acme.example");
  }, 60_000);

  it('creates users with a role and shows their API key', () => {
    const created = manage('create-user', 'ann@acme.example', 'Ann', 'Admin', '--role', '200');
    expect(created.code).toBe(0);
    const key = /API key: (\w+)/.exec(created.out)?.[1];
    expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
    const shown = manage('show-api-key', 'ann@acme.example');
    expect(shown.out).toBe(key);
  }, 60_000);

  it('resets an API key', () => {
    const before = manage('show-api-key', 'ann@acme.example').out;
    const reset = manage('reset-api-key', 'ann@acme.example');
    expect(reset.code).toBe(0);
    expect(reset.out).not.toBe(before);
    expect(manage('show-api-key', 'ann@acme.example').out).toBe(reset.out);
  }, 60_000);

  it('lists organizations', () => {
    const res = manage('list-realms');
    expect(res.out).toMatch(/1\t\(root\)\tAcme\t2 active users/);
  }, 60_000);

  it('refuses bad input with a message and exit code 1', () => {
    expect(manage('set-role', 'ann@acme.example', '999').code).toBe(1);
    const unknownUser = manage('show-api-key', 'ghost@acme.example');
    expect(unknownUser.code).toBe(1);
    expect(unknownUser.err).toContain("No user 'ghost@acme.example'");
    const dup = manage('create-user', 'ann@acme.example', 'Ann', 'Again');
    expect(dup.code).toBe(1);
    expect(dup.err).toContain('already in use');
    expect(manage('no-such-command').code).toBe(1);
  }, 60_000);
});

describe('The PGlite data directory', () => {
  it('is refused while another live process holds it', () => {
    // This test process is alive: pretend it is a running server.
    writeFileSync(join(dataDir, 'parley.pid'), String(process.pid));
    try {
      const res = manage('list-realms');
      expect(res.code).toBe(1);
      expect(res.err).toContain('is in use by process');
    } finally {
      writeFileSync(join(dataDir, 'parley.pid'), '999999999');
    }
    // A claim by a process that is gone is taken over.
    expect(manage('list-realms').code).toBe(0);
  }, 60_000);
});
