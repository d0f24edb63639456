// What a request may carry (server/input-limits.ts): JSON nesting, text PostgreSQL cannot store,
// lengths of indexed columns, repeated form fields, and GraphQL documents (GraphQL Armor). Each is
// answered with a client error before anything recursive or the database sees it, over REST and
// GraphQL alike, and nothing is stored.
import { beforeAll, describe, expect, it } from 'vitest';
import { getIntrospectionQuery } from 'graphql';
import { ApiClient, graphql, rawRequest } from '../support/client.ts';
import { sendToChannel } from '../support/factories.ts';
import { INPUT_LIMITS } from '../../server/input-limits.ts';
import { MAX_INDEXED_TEXT_LENGTH } from '../../resolvers/limits.ts';
import { useTestServer } from '../support/fixtures.ts';

let api: ApiClient;
let auth: string;
let messageId: number;
const t = useTestServer();

beforeAll(async () => {
  api = new ApiClient(t.baseUrl, t.owner, undefined, false);
  auth = 'Basic ' + Buffer.from(`${t.owner.email}:${t.owner.apiKey}`).toString('base64');
  messageId = await sendToChannel(t.client(t.owner), 'general', 'limits', 'original');
});

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'content-type': 'application/json' };

function expectBadRequest(res: { status: number; body: any }, msg?: RegExp) {
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(400);
  expect(res.body.result).toBe('error');
  expect(res.body.code).toBe('BAD_REQUEST');
  if (msg) expect(res.body.msg).toMatch(msg);
}

function graphqlRaw(body: string, authorization?: string) {
  return rawRequest('POST', `${t.baseUrl}/graphql`, { ...JSON_TYPE, ...(authorization ? { authorization } : {}) }, body);
}

describe('JSON nesting is bounded', () => {
  it('a parameter of 8,000 nested brackets without credentials is a 400 (POST /register narrow)', async () => {
    // 48 KB once percent-encoded: within what a caller without credentials may send (test/rest/request-bodies.test.ts).
    const res = await rawRequest('POST', `${t.baseUrl}/api/v1/register`, FORM, form({ narrow: nested(8000) }));
    expectBadRequest(res, /narrow is nested too deeply/);
  });

  it('the same with credentials, in a query string, and in a JSON body', async () => {
    expectBadRequest(await rawRequest('POST', `${t.baseUrl}/api/v1/register`, { ...FORM, authorization: auth }, form({ narrow: nested(100_000) })));
    expectBadRequest(await rawRequest('GET', `${t.baseUrl}/api/v1/messages?${form({ anchor: 'newest', num_before: '1', num_after: '0', narrow: nested(5000) })}`, { authorization: auth }));
    expectBadRequest(await rawRequest('POST', `${t.baseUrl}/api/v1/register`, { ...JSON_TYPE, authorization: auth }, `{"narrow":${nested(100_000)}}`), /narrow is nested too deeply/);
  });

  it(`${INPUT_LIMITS.jsonDepth} levels are the limit`, async () => {
    // Nested empty lists are a valid JSON value, but not a narrow: the domain answers, not the decoder.
    const within = await rawRequest('POST', `${t.baseUrl}/api/v1/register`, { ...FORM, authorization: auth }, form({ narrow: nested(INPUT_LIMITS.jsonDepth) }));
    expect(within.status).toBe(400);
    expect(within.body.msg).not.toMatch(/nested too deeply/);
    const beyond = await rawRequest('POST', `${t.baseUrl}/api/v1/register`, { ...FORM, authorization: auth }, form({ narrow: nested(INPUT_LIMITS.jsonDepth + 1) }));
    expectBadRequest(beyond, /nested too deeply/);
  });

  it('a GraphQL variable of 20,000 nested lists is BAD_REQUEST, with or without credentials', async () => {
    for (const authorization of [undefined, auth]) {
      const res = await graphqlRaw(`{"query":"mutation($w: [String!]!) { addAlertWords(alertWords: $w) }","variables":{"w":${nested(20_000)}}}`, authorization);
      expect(res.body.errors?.[0]?.extensions?.code, JSON.stringify(res.body)).toBe('BAD_REQUEST');
      expect(res.body.errors[0].message).toMatch(/Variable "\$w" is nested too deeply/);
    }
  });
});

describe('text PostgreSQL cannot store is refused where it enters', () => {
  const NUL = 'a\u0000b';
  const SURROGATE = 'a\ud800b';

  // Only JSON carries a lone surrogate (`\ud800`); form encodings arrive as UTF-8, where it cannot exist.
  it('a lone surrogate in a message edit topic (JSON body) changes nothing', async () => {
    expectBadRequest(await api.patch(`/messages/${messageId}`, { topic: SURROGATE }, 'json'), /topic contains an unpaired surrogate/);
    const res = await api.get(`/messages/${messageId}`);
    expect(res.body.message.subject).toBe('limits');
  });

  it('a lone surrogate inside a JSON parameter (linkifier alternative_url_templates) stores nothing', async () => {
    const res = await api.post('/realm/filters', {
      pattern: '#(?P<id>[0-9]+)', url_template: 'https://example.com/{id}', alternative_url_templates: JSON.stringify([`https://x.example/${SURROGATE}/{id}`]),
    });
    expectBadRequest(res, /alternative_url_templates contains an unpaired surrogate/);
    expect((await api.get('/realm/linkifiers')).body.linkifiers).toEqual([]);
  });

  it('NUL in a value, in a JSON object key and in a path segment', async () => {
    expectBadRequest(await api.post('/saved_snippets', { title: NUL, content: 'c' }), /title contains NULL/);
    expectBadRequest(await api.post('/users/me/subscriptions', { subscriptions: [{ ['na\u0000me']: 'x' }] }), /subscriptions contains NULL/);
    expectBadRequest(await api.get('/users/a%00b@example.com'));
  });

  it('GraphQL: in a variable or a string literal, BAD_REQUEST and nothing stored', async () => {
    for (const value of [NUL, SURROGATE]) {
      const res = await graphql(t.baseUrl, 'mutation($s: String!) { createSavedSnippet(title: $s, content: "c") }', { s: value }, t.owner);
      expect(res.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
      expect(res.body.errors![0]!.message).toMatch(/^Variable "\$s" contains/);
    }
    const literal = await graphql(t.baseUrl, 'mutation { createSavedSnippet(title: "a\\u0000", content: "c") }', {}, t.owner);
    expect(literal.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    expect((await api.get('/saved_snippets')).body.saved_snippets).toEqual([]);
  });
});

describe('indexed columns have length limits', () => {
  it('a 1 MB navigation view fragment is a 400 naming the limit', async () => {
    expectBadRequest(await api.post('/navigation_views', { fragment: 'a'.repeat(1_000_000), is_pinned: true, name: 'big' }), /fragment is too long/);
    expectBadRequest(await api.post('/navigation_views', { fragment: '𝄞'.repeat(MAX_INDEXED_TEXT_LENGTH + 1), is_pinned: true, name: 'big' }), /fragment is too long/);
    const longest = '𝄞'.repeat(MAX_INDEXED_TEXT_LENGTH);
    expect((await api.post('/navigation_views', { fragment: longest, is_pinned: true, name: 'longest' })).status).toBe(200);
  });

  it('a linkifier pattern beyond the limit is a 400', async () => {
    const res = await api.post('/realm/filters', { pattern: `${'x'.repeat(MAX_INDEXED_TEXT_LENGTH)}(?P<id>[0-9]+)`, url_template: 'https://example.com/{id}' });
    expectBadRequest(res, /pattern is too long/);
  });
});

describe('a repeated form field is read as Zulip reads it: the last one, decoded as usual', () => {
  const channels = async () => ((await api.get('/streams')).body.streams as { name: string }[]).map((s) => s.name);

  it('urlencoded', async () => {
    const body = `subscriptions=${encodeURIComponent('[{"name":"dup-a"}]')}&subscriptions=${encodeURIComponent('[{"name":"dup-b"}]')}`;
    const res = await rawRequest('POST', `${t.baseUrl}/api/v1/users/me/subscriptions`, { ...FORM, authorization: auth }, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await channels()).toContain('dup-b');
    expect((await channels()).filter((n) => n.includes('dup-a') || n.includes('['))).toEqual([]);
  });

  it('multipart', async () => {
    const b = 'parleyboundary';
    const part = (v: string) => `--${b}\r\nContent-Disposition: form-data; name="subscriptions"\r\n\r\n${v}\r\n`;
    const body = part('[{"name":"dup-c"}]') + part('[{"name":"dup-d"}]') + `--${b}--\r\n`;
    const res = await rawRequest('POST', `${t.baseUrl}/api/v1/users/me/subscriptions`, { 'content-type': `multipart/form-data; boundary=${b}`, authorization: auth }, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await channels()).filter((n) => n.startsWith('dup-c') || n.startsWith('[') || n === 'dup-d')).toEqual(['dup-d']);
  });

  it('in the query string and the body: the body wins', async () => {
    const query = form({ subscriptions: '[{"name":"dup-e"}]' });
    const res = await rawRequest('POST', `${t.baseUrl}/api/v1/users/me/subscriptions?${query}`, { ...FORM, authorization: auth }, form({ subscriptions: '[{"name":"dup-f"}]' }));
    expect(res.status).toBe(200);
    const names = await channels();
    expect(names).toContain('dup-f');
    expect(names).not.toContain('dup-e');
  });
});

describe('GraphQL operations are bounded (GraphQL Armor)', () => {
  const errorsOf = async (query: string, variables: Record<string, unknown> = {}, withCredentials = false) => {
    const res = await graphql(t.baseUrl, query, variables, withCredentials ? t.owner : undefined);
    const errors: { message: string; extensions?: Record<string, unknown> }[] = res.body.errors ?? [];
    for (const e of errors) expect(e.extensions?.code, e.message).not.toBe('INTERNAL_SERVER_ERROR');
    return errors;
  };

  it('a 3,000-deep selection without credentials is refused by the token limit, not a stack overflow', async () => {
    const errors = await errorsOf(`query {${'a{'.repeat(3000)} b ${'}'.repeat(3000)}}`);
    expect(errors[0]?.message).toMatch(new RegExp(`Token limit of ${INPUT_LIMITS.graphql.tokens} exceeded`));
  });

  it('a literal of 3,000 nested lists is refused the same way', async () => {
    const errors = await errorsOf(`{ serverSettings(x: ${nested(3000)}) { realmName } }`);
    expect(errors[0]?.message).toMatch(/Token limit/);
  });

  it('the deepest document the token limit lets through parses and validates without overflow', async () => {
    const levels = Math.floor(INPUT_LIMITS.graphql.tokens / 3) - 2;
    const errors = await errorsOf(`{${'a{'.repeat(levels)} b ${'}'.repeat(levels)}}`);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.some((e) => /depth limit|Cost limit/i.test(e.message))).toBe(true);
  });

  it(`selections deeper than ${INPUT_LIMITS.graphql.depth} levels are refused`, async () => {
    const deep = (levels: number) => `{${' a {'.repeat(levels - 1)} b ${'} '.repeat(levels - 1)}}`;
    const depthError = (errors: { message: string }[]) => errors.some((e) => /Query depth limit of \d+ exceeded/.test(e.message));
    expect(depthError(await errorsOf(deep(INPUT_LIMITS.graphql.depth)))).toBe(false);
    expect(depthError(await errorsOf(deep(INPUT_LIMITS.graphql.depth + 1)))).toBe(true);
  });

  it(`more than ${INPUT_LIMITS.graphql.aliases} aliases are refused`, async () => {
    const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: serverSettings { realmName }`).join(' ')} }`;
    expect(await errorsOf(aliases(INPUT_LIMITS.graphql.aliases))).toEqual([]);
    expect((await errorsOf(aliases(INPUT_LIMITS.graphql.aliases + 1)))[0]?.message).toMatch(/Aliases limit/);
  });

  it(`fragments that multiply the cost beyond ${INPUT_LIMITS.graphql.cost} are refused`, async () => {
    const fragments = Array.from({ length: 8 }, (_, i) =>
      `fragment F${i} on ServerSettings { ${i < 7 ? Array.from({ length: 4 }, () => `...F${i + 1}`).join(' ') : 'realmName'} }`).join('\n');
    const errors = await errorsOf(`{ serverSettings { ...F0 } }\n${fragments}`);
    expect(errors.some((e) => /Cost limit/i.test(e.message))).toBe(true);
  });

  it('GraphiQL\'s introspection query is within every limit', async () => {
    expect(await errorsOf(getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, inputValueDeprecation: true }))).toEqual([]);
  });

  it('a variable its type refuses is BAD_REQUEST, not an internal error', async () => {
    const errors = await errorsOf('query($m: Int!) { messages(anchor: "newest", numBefore: $m, numAfter: 0) { foundNewest } }', { m: 'abc' }, true);
    expect(errors[0]?.extensions?.code).toBe('BAD_REQUEST');
  });
});
