import { beforeEach, describe, expect, it } from 'vitest';
import { makeBot, setRole, updateRealm } from '../support/factories.ts';
import { ROLE_ADMINISTRATOR } from '../../resolvers/users/roles.ts';
import type { ApiClient, Credentials } from '../support/client.ts';
import { allEvents, registerQueue, withoutIds } from '../support/events.ts';
import { useOtherRealmOwner, useTeam, useTestServer } from '../support/fixtures.ts';

// Server and client share this process: on a busy machine the server may close an idle kept-alive
// socket just as the client reuses it (ECONNRESET in setup), so every request gets its own connection.

const t = useTestServer();
const { admin, moderator, member, guest } = useTeam(t, ['admin', 'moderator', 'member', 'guest']);
const outsider = useOtherRealmOwner(t, 'elsewhere');
const OTHER = 'elsewhere.localhost';

beforeEach(async () => {
  await t.db.realmDomain.deleteMany({});
});

const owner = () => t.client(t.owner);

async function domains(who: Credentials = t.owner, host?: string) {
  const res = await t.client(who, host).get('/realm/domains');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.domains as { domain: string; allow_subdomains: boolean }[];
}

function expectError(res: { status: number; body: any }, msg: string, code = 'BAD_REQUEST', status = 400) {
  expect(res.body).toMatchObject({ result: 'error', msg, code });
  expect(res.status).toBe(status);
}

const register = (client: ApiClient) => registerQueue(client, { event_types: ['realm_domains', 'realm'], fetch_event_types: ['realm_domains', 'realm'] });

const poll = async (client: ApiClient, queueId: string) => withoutIds(await allEvents(client, queueId));

describe('POST /realm/domains', () => {
  it('adds a domain and returns [ID, domain]', async () => {
    const res = await owner().post('/realm/domains', { domain: 'zulip.org', allow_subdomains: false });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.new_domain).toEqual([expect.any(Number), 'zulip.org']);
    const row = await t.db.realmDomain.findUniqueOrThrow({ where: { id: res.body.new_domain[0] } });
    expect(row).toMatchObject({ domain: 'zulip.org', allowSubdomains: false });
    expect(await domains()).toEqual([{ domain: 'zulip.org', allow_subdomains: false }]);
  });

  it('trims and lowercases the domain', async () => {
    const res = await owner().post('/realm/domains', { domain: '  Mail.Example.COM ', allow_subdomains: true });
    expect(res.body.new_domain[1]).toBe('mail.example.com');
    expect(await domains()).toEqual([{ domain: 'mail.example.com', allow_subdomains: true }]);
  });

  it('checks the syntax with Zulip\'s wording', async () => {
    const cases: [string, string][] = [
      ['', "Invalid domain: Domain can't be empty."],
      ['   ', "Invalid domain: Domain can't be empty."],
      ['localhost', 'Invalid domain: Domain must have at least one dot (.)'],
      [`${'a'.repeat(250)}.example`, 'Invalid domain: Domain is too long'],
      ['.example.com', 'Invalid domain: Domain cannot start or end with a dot (.)'],
      ['example.com.', 'Invalid domain: Domain cannot start or end with a dot (.)'],
      ['example..com', "Invalid domain: Consecutive '.' are not allowed."],
      ['-example.com', "Invalid domain: Subdomains cannot start or end with a '-'."],
      ['example-.com', "Invalid domain: Subdomains cannot start or end with a '-'."],
      ['exa_mple.com', "Invalid domain: Domain can only have letters, numbers, '.' and '-'s."],
      ['exämple.com', "Invalid domain: Domain can only have letters, numbers, '.' and '-'s."],
      ['user@example.com', "Invalid domain: Domain can only have letters, numbers, '.' and '-'s."],
    ];
    for (const [domain, msg] of cases) expectError(await owner().post('/realm/domains', { domain, allow_subdomains: false }), msg);
    expect(await domains()).toEqual([]);
  });

  it('accepts hyphens inside labels and digits', async () => {
    expect((await owner().post('/realm/domains', { domain: 'my-company2.co.uk', allow_subdomains: false })).status).toBe(200);
  });

  it('refuses a domain the organization already has, whatever its case', async () => {
    await owner().post('/realm/domains', { domain: 'zulip.org', allow_subdomains: false });
    expectError(await owner().post('/realm/domains', { domain: 'ZULIP.org', allow_subdomains: true }), 'The domain zulip.org is already a part of your organization.');
    expect(await domains()).toEqual([{ domain: 'zulip.org', allow_subdomains: false }]);
  });

  it('requires both parameters', async () => {
    expectError(await owner().post('/realm/domains', { allow_subdomains: false }), "Missing 'domain' argument", 'REQUEST_VARIABLE_MISSING');
    expectError(await owner().post('/realm/domains', { domain: 'zulip.org' }), "Missing 'allow_subdomains' argument", 'REQUEST_VARIABLE_MISSING');
    expectError(await owner().post('/realm/domains', { domain: 'zulip.org', allow_subdomains: 'maybe' }), 'allow_subdomains is not a boolean');
    expect(await domains()).toEqual([]);
  });
});

describe('PATCH /realm/domains/{domain}', () => {
  it('changes allow_subdomains', async () => {
    await owner().post('/realm/domains', { domain: 'zulip.org', allow_subdomains: false });
    const res = await owner().patch('/realm/domains/zulip.org', { allow_subdomains: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await domains()).toEqual([{ domain: 'zulip.org', allow_subdomains: true }]);
  });

  it('answers "No entry found" for a domain that is not allowed', async () => {
    expectError(await owner().patch('/realm/domains/nowhere.example', { allow_subdomains: true }), 'No entry found for domain nowhere.example.');
  });

  it('requires allow_subdomains', async () => {
    await owner().post('/realm/domains', { domain: 'zulip.org', allow_subdomains: false });
    expectError(await owner().patch('/realm/domains/zulip.org', {}), "Missing 'allow_subdomains' argument", 'REQUEST_VARIABLE_MISSING');
  });
});

describe('DELETE /realm/domains/{domain}', () => {
  it('removes a domain', async () => {
    await owner().post('/realm/domains', { domain: 'zulip.org', allow_subdomains: false });
    await owner().post('/realm/domains', { domain: 'example.com', allow_subdomains: false });
    expect((await owner().delete('/realm/domains/zulip.org')).status).toBe(200);
    expect(await domains()).toEqual([{ domain: 'example.com', allow_subdomains: false }]);
  });

  it('answers "No entry found" for a domain that is not allowed', async () => {
    expectError(await owner().delete('/realm/domains/nowhere.example'), 'No entry found for domain nowhere.example.');
  });

  it('lifts the sign-up restriction when the last domain goes', async () => {
    const db = t.db;
    const { realmId } = await db.user.findUniqueOrThrow({ where: { id: t.owner.userId } });
    await owner().post('/realm/domains', { domain: 'zulip.org', allow_subdomains: false });
    await owner().post('/realm/domains', { domain: 'example.com', allow_subdomains: false });
    await updateRealm(t, { emails_restricted_to_domains: true });
    const q = await register(t.client(member));
    await owner().delete('/realm/domains/zulip.org');
    expect((await db.realm.findUniqueOrThrow({ where: { id: realmId } })).emailsRestrictedToDomains).toBe(true);
    await owner().delete('/realm/domains/example.com');
    expect((await db.realm.findUniqueOrThrow({ where: { id: realmId } })).emailsRestrictedToDomains).toBe(false);
    expect(await poll(t.client(member), q.queue_id)).toEqual([
      { type: 'realm_domains', op: 'remove', domain: 'zulip.org' },
      { type: 'realm', op: 'update', property: 'emails_restricted_to_domains', value: false },
      { type: 'realm_domains', op: 'remove', domain: 'example.com' },
    ]);
  });
});

describe('permissions', () => {
  it('lets every role read the list', async () => {
    await owner().post('/realm/domains', { domain: 'zulip.org', allow_subdomains: true });
    for (const who of [admin, moderator, member, guest]) expect(await domains(who)).toEqual([{ domain: 'zulip.org', allow_subdomains: true }]);
  });

  it('lets only owners change domains: administrators and everyone else are refused', async () => {
    await owner().post('/realm/domains', { domain: 'zulip.org', allow_subdomains: false });
    for (const who of [admin, moderator, member, guest]) {
      const denied = 'Must be an organization owner';
      expectError(await t.client(who).post('/realm/domains', { domain: 'evil.example', allow_subdomains: true }), denied, 'UNAUTHORIZED_PRINCIPAL', 400);
      expectError(await t.client(who).patch('/realm/domains/zulip.org', { allow_subdomains: true }), denied, 'UNAUTHORIZED_PRINCIPAL', 400);
      expectError(await t.client(who).delete('/realm/domains/zulip.org'), denied, 'UNAUTHORIZED_PRINCIPAL', 400);
    }
    expect(await domains()).toEqual([{ domain: 'zulip.org', allow_subdomains: false }]);
  });

  it('refuses bots that are not owners', async () => {
    const bot = await makeBot(t, t.owner, { fullName: 'Botty' });
    await setRole(t, bot.userId, ROLE_ADMINISTRATOR);
    expectError(await t.client(bot).post('/realm/domains', { domain: 'bots.example', allow_subdomains: false }), 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL', 400);
    expect(await domains()).toEqual([]);
  });

  it('keeps organizations apart', async () => {
    await owner().post('/realm/domains', { domain: 'zulip.org', allow_subdomains: false });
    const other = t.client(outsider, OTHER);
    expect(await domains(outsider, OTHER)).toEqual([]);
    expectError(await other.patch('/realm/domains/zulip.org', { allow_subdomains: true }), 'No entry found for domain zulip.org.');
    expectError(await other.delete('/realm/domains/zulip.org'), 'No entry found for domain zulip.org.');
    // Each organization has its own list: the same domain may be added there.
    expect((await other.post('/realm/domains', { domain: 'zulip.org', allow_subdomains: true })).status).toBe(200);
    expect(await domains()).toEqual([{ domain: 'zulip.org', allow_subdomains: false }]);
  });

  it('requires authentication', async () => {
    expect((await t.client().get('/realm/domains')).status).toBe(401);
    expect((await t.client().post('/realm/domains', { domain: 'zulip.org', allow_subdomains: false })).status).toBe(401);
  });
});

describe('realm_domains events and register', () => {
  it('sends add, change and remove to every user of the organization', async () => {
    const queues = await Promise.all([member, guest, admin].map(async (who) => ({ who, q: await register(t.client(who)) })));
    const outside = await register(t.client(outsider, OTHER));
    await owner().post('/realm/domains', { domain: 'Zulip.org', allow_subdomains: false });
    await owner().patch('/realm/domains/zulip.org', { allow_subdomains: true });
    await owner().delete('/realm/domains/zulip.org');
    for (const { who, q } of queues) {
      expect(await poll(t.client(who), q.queue_id)).toEqual([
        { type: 'realm_domains', op: 'add', realm_domain: { domain: 'zulip.org', allow_subdomains: false } },
        { type: 'realm_domains', op: 'change', realm_domain: { domain: 'zulip.org', allow_subdomains: true } },
        { type: 'realm_domains', op: 'remove', domain: 'zulip.org' },
      ]);
    }
    expect(await poll(t.client(outsider, OTHER), outside.queue_id)).toEqual([]);
  });

  it('sends nothing for a refused change', async () => {
    const q = await register(t.client(member));
    await t.client(admin).post('/realm/domains', { domain: 'zulip.org', allow_subdomains: false });
    await owner().post('/realm/domains', { domain: 'bad_domain.org', allow_subdomains: false });
    await owner().delete('/realm/domains/nowhere.example');
    expect(await poll(t.client(member), q.queue_id)).toEqual([]);
  });

  it('lists the domains in register\'s realm_domains', async () => {
    await owner().post('/realm/domains', { domain: 'zulip.org', allow_subdomains: true });
    expect((await register(t.client(guest))).realm_domains).toEqual([{ domain: 'zulip.org', allow_subdomains: true }]);
  });
});
