// Linkifiers and allowed domains through GraphQL: the same rules, errors and events as REST.
import http from 'node:http';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { validateEvent } from '../support/openapi.ts';
import type { Credentials } from '../support/client.ts';
import { fails, login, ok } from './helpers.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

// Server and client share this process: on a busy machine the server may close an idle kept-alive
// socket just as the client reuses it (ECONNRESET in setup), so every request gets its own connection.
http.globalAgent = new http.Agent({ keepAlive: false });

let outsider: Credentials;
const t = useTestServer();
const { admin, moderator, member, guest } = useTeam(t, ['admin', 'moderator', 'member', 'guest']);
const OTHER = 'elsewhere.localhost';

beforeAll(async () => {
  const { createRealm } = await import('../../resolvers/realm/create.ts');
  await createRealm(t.db, { stringId: 'elsewhere', name: 'Elsewhere', ownerEmail: 'boss@elsewhere.example.com', ownerPassword: 'pw-elsewhere-1' });
  outsider = await login(t, 'boss@elsewhere.example.com', 'pw-elsewhere-1', OTHER);
});

beforeEach(async () => {
  const db = t.db;
  await db.linkifier.deleteMany({});
  await db.realmDomain.deleteMany({});
  const { forgetLinkifiers } = await import('../../resolvers/messages/render.ts');
  for (const realm of await db.realm.findMany({ select: { id: true } })) forgetLinkifiers(realm.id);
});

const LIST = 'query { realmLinkifiers { id pattern urlTemplate exampleInput reverseTemplate alternativeUrlTemplates } }';
const ADD = `mutation($p: String!, $u: String!, $e: String, $r: String, $a: [String!]) {
  addLinkifier(pattern: $p, urlTemplate: $u, exampleInput: $e, reverseTemplate: $r, alternativeUrlTemplates: $a) }`;
const UPDATE = `mutation($id: Int!, $p: String!, $u: String!, $e: String, $r: String) {
  updateLinkifier(filterId: $id, pattern: $p, urlTemplate: $u, exampleInput: $e, reverseTemplate: $r) }`;
const REMOVE = 'mutation($id: Int!) { removeLinkifier(filterId: $id) }';
const REORDER = 'mutation($ids: [Int!]!) { reorderLinkifiers(orderedLinkifierIds: $ids) }';
const DOMAINS = 'query { realmDomains { id domain allowSubdomains } }';
const ADD_DOMAIN = 'mutation($d: String!, $s: Boolean!) { addRealmDomain(domain: $d, allowSubdomains: $s) { id domain allowSubdomains } }';
const CHANGE_DOMAIN = 'mutation($d: String!, $s: Boolean!) { changeRealmDomain(domain: $d, allowSubdomains: $s) }';
const REMOVE_DOMAIN = 'mutation($d: String!) { removeRealmDomain(domain: $d) }';
const REGISTER = 'mutation($types: [String!], $caps: JSON) { registerEventQueue(eventTypes: $types, fetchEventTypes: $types, clientCapabilities: $caps) { queueId state } }';
const EVENTS = 'query($q: String!) { events(queueId: $q, lastEventId: -1, dontBlock: true) }';

const ISSUE = { p: '#(?P<id>[0-9]+)', u: 'https://github.com/zulip/zulip/issues/{id}' };

async function addLinkifier(vars: Record<string, unknown>): Promise<number> {
  return (await ok(t, ADD, vars, t.owner)).addLinkifier;
}

async function linkifiers(who: Credentials = t.owner, host?: string) {
  return (await ok(t, LIST, {}, who, host)).realmLinkifiers as { id: number; pattern: string; urlTemplate: string; [k: string]: unknown }[];
}

async function register(who: Credentials, types: string[], caps: Record<string, boolean> = {}, host?: string) {
  return (await ok(t, REGISTER, { types, caps }, who, host)).registerEventQueue as { queueId: string; state: Record<string, any> };
}

async function events(who: Credentials, queueId: string, host?: string) {
  const data = await ok(t, EVENTS, { q: queueId }, who, host);
  const list = (data.events as { type: string; id: number; [k: string]: unknown }[]).filter((e) => e.type !== 'heartbeat');
  for (const event of list) validateEvent(event);
  return list.map(({ id: _id, ...rest }) => rest);
}

async function expectFailure(query: string, vars: Record<string, unknown>, who: Credentials, message: string, code = 'BAD_REQUEST', httpStatus = 400, host?: string) {
  const { error } = await fails(t, query, vars, who, host);
  expect(error.message).toBe(message);
  expect(error.extensions).toMatchObject({ code, httpStatus });
}

describe('linkifiers', () => {
  it('adds, lists, updates, reorders and removes', async () => {
    const first = await addLinkifier({ ...ISSUE, e: '#12', r: '#{id}', a: ['https://github.com/zulip/zulip/pull/{id}'] });
    const second = await addLinkifier({ p: 'T-(?P<id>[0-9]+)', u: 'https://t.example/{id}' });
    expect(await linkifiers()).toEqual([
      { id: first, pattern: ISSUE.p, urlTemplate: ISSUE.u, exampleInput: '#12', reverseTemplate: '#{id}', alternativeUrlTemplates: ['https://github.com/zulip/zulip/pull/{id}'] },
      { id: second, pattern: 'T-(?P<id>[0-9]+)', urlTemplate: 'https://t.example/{id}', exampleInput: null, reverseTemplate: null, alternativeUrlTemplates: [] },
    ]);
    expect((await ok(t, UPDATE, { id: first, ...ISSUE, u: 'https://tracker.example/{id}', r: '' }, admin)).updateLinkifier).toBe(true);
    expect((await linkifiers())[0]).toMatchObject({ urlTemplate: 'https://tracker.example/{id}', reverseTemplate: null, exampleInput: '#12' });
    expect((await ok(t, REORDER, { ids: [second, first] }, admin)).reorderLinkifiers).toBe(true);
    expect((await linkifiers()).map((l) => l.id)).toEqual([second, first]);
    expect((await ok(t, REMOVE, { id: second }, admin)).removeLinkifier).toBe(true);
    expect((await linkifiers()).map((l) => l.id)).toEqual([first]);
  });

  it('reports every validation error with Zulip\'s wording', async () => {
    await expectFailure(ADD, { p: '', u: 'https://x.example/' }, t.owner, 'This field cannot be blank.');
    await expectFailure(ADD, { p: '(foo', u: 'https://x.example/' }, t.owner, 'Bad regular expression: missing ): (foo');
    await expectFailure(ADD, { p: '#(?P<id>[0-9]+)', u: 'https://x.example/{id' }, t.owner, 'Invalid URL template.');
    await expectFailure(ADD, { p: '#(?P<id>[0-9]+)', u: 'https://x.example/' }, t.owner, "Group 'id' in linkifier pattern is not present in URL template.");
    await expectFailure(ADD, { p: '#[0-9]+', u: 'https://x.example/{id}' }, t.owner, "Group 'id' in URL template is not present in linkifier pattern.");
    await expectFailure(ADD, { ...ISSUE, e: '#12', r: '#{id}!' }, t.owner, 'Reverse template does not reproduce the example input.');
    await expectFailure(ADD, { ...ISSUE, e: 'x12', r: '#{id}' }, t.owner, 'Example input does not match the linkifier pattern.');
    await expectFailure(ADD, { ...ISSUE, r: '#{id}' }, t.owner, 'An example input is required to check the reverse template.');
    await expectFailure(ADD, { ...ISSUE, a: ['https://x.example/{nope}'] }, t.owner, "Group 'nope' in URL template is not present in linkifier pattern.");
    expect(await linkifiers()).toEqual([]);
    const id = await addLinkifier(ISSUE);
    await expectFailure(ADD, ISSUE, t.owner, 'Realm filter with this Realm and Pattern already exists.');
    await expectFailure(UPDATE, { id: id + 1, ...ISSUE }, t.owner, 'Linkifier not found.');
    await expectFailure(REMOVE, { id: id + 1 }, t.owner, 'Linkifier not found.');
    await expectFailure(REORDER, { ids: [id, id] }, t.owner, 'The ordered list must not contain duplicated linkifiers');
    await expectFailure(REORDER, { ids: [] }, t.owner, 'The ordered list must enumerate all existing linkifiers exactly once');
    expect(await linkifiers()).toEqual([expect.objectContaining({ id, pattern: ISSUE.p, urlTemplate: ISSUE.u })]);
  });

  it('refuses moderators, members and guests; every role may read', async () => {
    const id = await addLinkifier(ISSUE);
    for (const who of [moderator, member, guest]) {
      const denied = 'Must be an organization administrator';
      await expectFailure(ADD, { p: 'X-(?P<id>[0-9]+)', u: 'https://x.example/{id}' }, who, denied, 'UNAUTHORIZED_PRINCIPAL', 400);
      await expectFailure(UPDATE, { id, ...ISSUE, u: 'https://evil.example/{id}' }, who, denied, 'UNAUTHORIZED_PRINCIPAL', 400);
      await expectFailure(REMOVE, { id }, who, denied, 'UNAUTHORIZED_PRINCIPAL', 400);
      await expectFailure(REORDER, { ids: [id] }, who, denied, 'UNAUTHORIZED_PRINCIPAL', 400);
      expect((await linkifiers(who)).map((l) => l.id)).toEqual([id]);
    }
    expect(await linkifiers()).toEqual([expect.objectContaining({ id, urlTemplate: ISSUE.u })]);
  });

  it('keeps organizations apart', async () => {
    const id = await addLinkifier(ISSUE);
    expect(await linkifiers(outsider, OTHER)).toEqual([]);
    await expectFailure(UPDATE, { id, ...ISSUE, u: 'https://evil.example/{id}' }, outsider, 'Linkifier not found.', 'BAD_REQUEST', 400, OTHER);
    await expectFailure(REMOVE, { id }, outsider, 'Linkifier not found.', 'BAD_REQUEST', 400, OTHER);
    expect(await linkifiers()).toEqual([expect.objectContaining({ id, urlTemplate: ISSUE.u })]);
  });

  it('requires authentication', async () => {
    const { error } = await fails(t, LIST);
    expect(error.extensions?.code).toBe('UNAUTHORIZED');
  });

  it('sends realm_linkifiers only to queues with linkifier_url_template', async () => {
    const capable = await register(member, ['realm_linkifiers'], { linkifier_url_template: true });
    const legacy = await register(guest, ['realm_linkifiers', 'realm_filters']);
    expect(legacy.state.realm_linkifiers).toEqual([]);
    expect(legacy.state.realm_filters).toEqual([]);
    const id = await addLinkifier(ISSUE);
    await ok(t, REMOVE, { id }, t.owner);
    expect(await events(member, capable.queueId)).toEqual([
      { type: 'realm_linkifiers', realm_linkifiers: [{ id, pattern: ISSUE.p, url_template: ISSUE.u, example_input: null, reverse_template: null, alternative_url_templates: [] }] },
      { type: 'realm_linkifiers', realm_linkifiers: [] },
    ]);
    expect(await events(guest, legacy.queueId)).toEqual([]);
  });
});

describe('allowed domains', () => {
  it('adds, lists, changes and removes', async () => {
    const added = (await ok(t, ADD_DOMAIN, { d: ' Zulip.ORG ', s: false }, t.owner)).addRealmDomain;
    expect(added).toEqual({ id: expect.any(Number), domain: 'zulip.org', allowSubdomains: false });
    expect((await ok(t, DOMAINS, {}, guest)).realmDomains).toEqual([added]);
    expect((await ok(t, CHANGE_DOMAIN, { d: 'zulip.org', s: true }, t.owner)).changeRealmDomain).toBe(true);
    expect((await ok(t, DOMAINS, {}, member)).realmDomains).toEqual([{ ...added, allowSubdomains: true }]);
    expect((await ok(t, REMOVE_DOMAIN, { d: 'zulip.org' }, t.owner)).removeRealmDomain).toBe(true);
    expect((await ok(t, DOMAINS, {}, t.owner)).realmDomains).toEqual([]);
  });

  it('reports syntax errors, duplicates and missing entries with Zulip\'s wording', async () => {
    await expectFailure(ADD_DOMAIN, { d: 'localhost', s: false }, t.owner, 'Invalid domain: Domain must have at least one dot (.)');
    await expectFailure(ADD_DOMAIN, { d: '', s: false }, t.owner, "Invalid domain: Domain can't be empty.");
    await expectFailure(ADD_DOMAIN, { d: 'a..b', s: false }, t.owner, "Invalid domain: Consecutive '.' are not allowed.");
    await ok(t, ADD_DOMAIN, { d: 'zulip.org', s: false }, t.owner);
    await expectFailure(ADD_DOMAIN, { d: 'zulip.org', s: true }, t.owner, 'The domain zulip.org is already a part of your organization.');
    await expectFailure(CHANGE_DOMAIN, { d: 'other.org', s: true }, t.owner, 'No entry found for domain other.org.');
    await expectFailure(REMOVE_DOMAIN, { d: 'other.org' }, t.owner, 'No entry found for domain other.org.');
    expect((await ok(t, DOMAINS, {}, t.owner)).realmDomains).toEqual([expect.objectContaining({ domain: 'zulip.org', allowSubdomains: false })]);
  });

  it('lets only owners change domains', async () => {
    await ok(t, ADD_DOMAIN, { d: 'zulip.org', s: false }, t.owner);
    for (const who of [admin, moderator, member, guest]) {
      const denied = 'Must be an organization owner';
      await expectFailure(ADD_DOMAIN, { d: 'evil.example', s: true }, who, denied, 'UNAUTHORIZED_PRINCIPAL', 400);
      await expectFailure(CHANGE_DOMAIN, { d: 'zulip.org', s: true }, who, denied, 'UNAUTHORIZED_PRINCIPAL', 400);
      await expectFailure(REMOVE_DOMAIN, { d: 'zulip.org' }, who, denied, 'UNAUTHORIZED_PRINCIPAL', 400);
    }
    expect((await ok(t, DOMAINS, {}, t.owner)).realmDomains).toEqual([expect.objectContaining({ domain: 'zulip.org', allowSubdomains: false })]);
  });

  it('keeps organizations apart', async () => {
    await ok(t, ADD_DOMAIN, { d: 'zulip.org', s: false }, t.owner);
    expect((await ok(t, DOMAINS, {}, outsider, OTHER)).realmDomains).toEqual([]);
    await expectFailure(REMOVE_DOMAIN, { d: 'zulip.org' }, outsider, 'No entry found for domain zulip.org.', 'BAD_REQUEST', 400, OTHER);
  });

  it('sends realm_domains events to the organization only', async () => {
    const mine = await register(member, ['realm_domains']);
    const theirs = await register(outsider, ['realm_domains'], {}, OTHER);
    await ok(t, ADD_DOMAIN, { d: 'zulip.org', s: false }, t.owner);
    await ok(t, CHANGE_DOMAIN, { d: 'zulip.org', s: true }, t.owner);
    await ok(t, REMOVE_DOMAIN, { d: 'zulip.org' }, t.owner);
    expect(await events(member, mine.queueId)).toEqual([
      { type: 'realm_domains', op: 'add', realm_domain: { domain: 'zulip.org', allow_subdomains: false } },
      { type: 'realm_domains', op: 'change', realm_domain: { domain: 'zulip.org', allow_subdomains: true } },
      { type: 'realm_domains', op: 'remove', domain: 'zulip.org' },
    ]);
    expect(await events(outsider, theirs.queueId, OTHER)).toEqual([]);
  });
});
