import { beforeEach, describe, expect, it } from 'vitest';
import { makeBot, sendToChannel, setRole } from '../support/factories.ts';
import { ROLE_ADMINISTRATOR } from '../../resolvers/users/roles.ts';
import type { ApiClient, Credentials } from '../support/client.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useOtherRealmOwner, useTeam, useTestServer } from '../support/fixtures.ts';

// Server and client share this process: on a busy machine the server may close an idle kept-alive
// socket just as the client reuses it (ECONNRESET in setup), so every request gets its own connection.

const t = useTestServer();
const { admin, moderator, member, guest } = useTeam(t, ['admin', 'moderator', 'member', 'guest']);
const outsider = useOtherRealmOwner(t, 'elsewhere');
const OTHER = 'elsewhere.localhost';

// Each test starts from an organization without linkifiers.
beforeEach(async () => {
  await t.db.linkifier.deleteMany({});
  const { forgetLinkifiers } = await import('../../resolvers/messages/render.ts');
  for (const realm of await t.db.realm.findMany({ select: { id: true } })) forgetLinkifiers(realm.id);
});

const ISSUE = { pattern: '#(?P<id>[0-9]+)', url_template: 'https://github.com/zulip/zulip/issues/{id}' };

async function add(params: Record<string, unknown>, who: Credentials = t.owner) {
  return t.client(who).post('/realm/filters', params);
}

async function addOk(params: Record<string, unknown>): Promise<number> {
  const res = await add(params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id;
}

async function list(who: Credentials = t.owner) {
  const res = await t.client(who).get('/realm/linkifiers');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.linkifiers as { id: number; pattern: string; url_template: string; [k: string]: unknown }[];
}

function expectError(res: { status: number; body: any }, msg: string, code = 'BAD_REQUEST', status = 400) {
  expect(res.body).toMatchObject({ result: 'error', msg, code });
  expect(res.status).toBe(status);
}

const register = (client: ApiClient, capabilities: Record<string, boolean> = {}) => registerQueue(client, {
  event_types: ['realm_linkifiers', 'realm_filters'],
  fetch_event_types: ['realm_linkifiers', 'realm_filters'],
  client_capabilities: capabilities,
});

async function rendered(content: string): Promise<string> {
  const id = await sendToChannel(t.client(member), 'general', 'linkifiers', content);
  const res = await t.client(member).get(`/messages/${id}`);
  return res.body.message.content;
}

describe('POST /realm/filters', () => {
  it('adds a linkifier and returns its ID', async () => {
    const id = await addOk(ISSUE);
    expect(id).toBeGreaterThan(0);
    expect(await list()).toEqual([{ id, ...ISSUE, example_input: null, reverse_template: null, alternative_url_templates: [] }]);
  });

  it('accepts Zulip\'s own examples of valid URL templates', async () => {
    for (const [pattern, url_template] of [
      ['ZUL-(?P<id>\\d+)', 'https://realm.com/my_realm_filter/#hashtag/{id}'],
      ['PR (?P<id>[0-9]+)', 'https://example.com/~user/web#view_type=type&model=model&action=12345&id={id}'],
      ['ZUL-URL-(?P<id>\\d+)', 'https://example.com/%ba/{id}'],
      ['(?P<org>[a-zA-Z0-9_-]+)/(?P<repo>[a-zA-Z0-9_-]+)#(?P<id>[0-9]+)', 'https://github.com/{org}/{repo}/issue/{id}'],
      ['FOO_(?P<id>[a-f]{5});(?P<zone>[a-f]);(?P<domain>[a-z]+);(?P<location>[a-z]+);(?P<name>[a-z]{2,8});(?P<chapter>[0-9]{2,3});(?P<fragment>[a-z]{2,8})',
        'https://zone_{zone}{.domain}.net/ticket{/location}{/id}{?name,chapter}{#fragment:5}'],
      ['3#123', 'https://example.com'],
    ]) {
      const res = await add({ pattern, url_template });
      expect(res.status, `${pattern}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    expect(await list()).toHaveLength(6);
  });

  it('trims the pattern and the template', async () => {
    await addOk({ pattern: '  #(?P<id>[0-9]+) ', url_template: ' https://x.example/{id}\n' });
    expect((await list())[0]).toMatchObject({ pattern: '#(?P<id>[0-9]+)', url_template: 'https://x.example/{id}' });
  });

  it('refuses a blank pattern or template', async () => {
    expectError(await add({ pattern: '', url_template: 'https://realm.com/my_realm_filter/{id}' }), 'This field cannot be blank.');
    expectError(await add({ pattern: '   ', url_template: 'https://x.example/' }), 'This field cannot be blank.');
    expectError(await add({ pattern: 'abc', url_template: '' }), 'This field cannot be blank.');
    expect(await list()).toEqual([]);
  });

  it('refuses patterns RE2 cannot compile', async () => {
    expectError(await add({ pattern: '(foo', url_template: 'https://x.example/' }), 'Bad regular expression: missing ): (foo');
    expectError(await add({ pattern: 'ZUL-(?P<id>\\d????)', url_template: 'https://x.example/{id}' }), 'Bad regular expression: bad repetition operator: ????');
    // Backreferences and lookaround are not RE2.
    expectError(await add({ pattern: '(?P<id>a)\\1', url_template: 'https://x.example/{id}' }), 'Bad regular expression: invalid escape sequence: \\1');
    expectError(await add({ pattern: '#(?=x)(?P<id>x)', url_template: 'https://x.example/{id}' }), 'Bad regular expression: invalid perl operator: (?=');
    expectError(await add({ pattern: '(?P<id>a)(?P<id>b)', url_template: 'https://x.example/{id}' }), 'Bad regular expression: invalid named capture group: id');
    expectError(await add({ pattern: 'abc\\', url_template: 'https://x.example/' }), 'Bad regular expression: trailing \\');
    expect(await list()).toEqual([]);
  });

  it('refuses a URL template that is not RFC 6570', async () => {
    for (const url_template of ['https://example.com/{id', 'https://example.com/{{}', 'https://example.com/{//id}', 'https://example.com/{id++}']) {
      expectError(await add({ pattern: '#(?P<id>[0-9]+)', url_template }), 'Invalid URL template.');
    }
    expect(await list()).toEqual([]);
  });

  it('requires template variables and named groups to be the same set', async () => {
    expectError(await add({ pattern: 'ZUL-(?P<id>\\d+)', url_template: '$fgfg' }), "Group 'id' in linkifier pattern is not present in URL template.");
    expectError(await add({ pattern: 'ZUL-(?P<id>\\d+)', url_template: 'https://realm.com/my_realm_filter/' }), "Group 'id' in linkifier pattern is not present in URL template.");
    expectError(await add({ pattern: 'ZUL-(?P<id>\\d+)', url_template: 'https://realm.com/my_realm_filter/{hello}' }), "Group 'hello' in URL template is not present in linkifier pattern.");
    expectError(await add({ pattern: 'ZUL-(?P<id>\\d+)-(?P<hello>\\d+)', url_template: 'https://realm.com/{hello}' }), "Group 'id' in linkifier pattern is not present in URL template.");
    // The first missing name, alphabetically, is reported.
    expectError(await add({ pattern: 'x', url_template: 'https://realm.com/{zeta}/{alpha}' }), "Group 'alpha' in URL template is not present in linkifier pattern.");
    expect(await list()).toEqual([]);
  });

  it('refuses a pattern the organization already has', async () => {
    await addOk(ISSUE);
    expectError(await add({ ...ISSUE, url_template: 'https://elsewhere.example/{id}' }), 'Realm filter with this Realm and Pattern already exists.');
    expect(await list()).toHaveLength(1);
  });

  it('requires pattern and url_template', async () => {
    expectError(await add({ url_template: 'https://x.example/' }), "Missing 'pattern' argument", 'REQUEST_VARIABLE_MISSING');
    expectError(await add({ pattern: 'x' }), "Missing 'url_template' argument", 'REQUEST_VARIABLE_MISSING');
  });
});

describe('reverse templates and alternative URL templates', () => {
  const GITHUB = { pattern: '(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>[0-9]+)', url_template: 'https://github.com/{org}/{repo}/issues/{id}' };

  it('stores a reverse template that reproduces the example input', async () => {
    const id = await addOk({ ...GITHUB, example_input: 'zulip/zulip#123', reverse_template: '{org}/{repo}#{id}', alternative_url_templates: JSON.stringify(['https://github.com/{org}/{repo}/pull/{id}']) });
    expect((await list())[0]).toEqual({
      id, ...GITHUB, example_input: 'zulip/zulip#123', reverse_template: '{org}/{repo}#{id}',
      alternative_url_templates: ['https://github.com/{org}/{repo}/pull/{id}'],
    });
  });

  it('reads {{ and }} as literal braces', async () => {
    await addOk({ pattern: '\\{(?P<id>[0-9]+)\\}', url_template: 'https://x.example/{id}', example_input: '{42}', reverse_template: '{{{id}}}' });
    expect((await list())[0]!.reverse_template).toBe('{{{id}}}');
  });

  it('refuses a reverse template that does not reproduce the example input', async () => {
    expectError(await add({ ...GITHUB, example_input: 'zulip/docs#123', reverse_template: '{repo}/{org}#{id}' }), 'Reverse template does not reproduce the example input.');
    expectError(await add({ ...GITHUB, example_input: 'zulip/zulip#123', reverse_template: '{org}#{id}' }), 'Reverse template does not reproduce the example input.');
    expect(await list()).toEqual([]);
  });

  it('refuses an example input the pattern does not match', async () => {
    expectError(await add({ ...GITHUB, example_input: 'not an issue', reverse_template: '{org}/{repo}#{id}' }), 'Example input does not match the linkifier pattern.');
  });

  it('needs an example input to check a reverse template', async () => {
    expectError(await add({ ...GITHUB, reverse_template: '{org}/{repo}#{id}' }), 'An example input is required to check the reverse template.');
  });

  it('refuses reverse-template variables that are not groups, and unbalanced braces', async () => {
    expectError(await add({ ...GITHUB, example_input: 'zulip/zulip#1', reverse_template: '{owner}/{repo}#{id}' }), "Group 'owner' in reverse template is not present in linkifier pattern.");
    expectError(await add({ ...GITHUB, example_input: 'zulip/zulip#1', reverse_template: '{org/{repo}#{id}' }), 'Invalid reverse template.');
    expectError(await add({ ...GITHUB, example_input: 'zulip/zulip#1', reverse_template: '{org}}/{repo}#{id}' }), 'Invalid reverse template.');
    expect(await list()).toEqual([]);
  });

  it('checks each alternative URL template', async () => {
    expectError(await add({ ...GITHUB, alternative_url_templates: JSON.stringify(['https://github.com/{org']) }), 'Invalid URL template.');
    expectError(await add({ ...GITHUB, alternative_url_templates: JSON.stringify(['https://github.com/{user}']) }), "Group 'user' in URL template is not present in linkifier pattern.");
    expectError(await add({ ...GITHUB, alternative_url_templates: '"https://github.com"' }), 'alternative_url_templates is not a list');
    expect(await list()).toEqual([]);
  });

  it('an empty reverse template resets it to null', async () => {
    const id = await addOk({ ...GITHUB, example_input: 'zulip/zulip#123', reverse_template: '{org}/{repo}#{id}' });
    const res = await t.client(t.owner).patch(`/realm/filters/${id}`, { ...GITHUB, reverse_template: '' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await list())[0]).toMatchObject({ reverse_template: null, example_input: 'zulip/zulip#123' });
  });
});

describe('PATCH /realm/filters/{filter_id}', () => {
  it('replaces the pattern and template', async () => {
    const id = await addOk({ pattern: '#(?P<id>[123])', url_template: 'https://realm.com/my_realm_filter/{id}' });
    const res = await t.client(t.owner).patch(`/realm/filters/${id}`, { pattern: '#(?P<id>[0-9]+)', url_template: 'https://realm.com/my_realm_filter/issues/{id}' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await list()).toEqual([expect.objectContaining({ id, pattern: '#(?P<id>[0-9]+)', url_template: 'https://realm.com/my_realm_filter/issues/{id}' })]);
  });

  it('keeps optional fields that are left out, and checks them against the new pattern', async () => {
    const id = await addOk({ pattern: 'T-(?P<id>[0-9]+)', url_template: 'https://t.example/{id}', example_input: 'T-7', reverse_template: 'T-{id}' });
    const moved = await t.client(t.owner).patch(`/realm/filters/${id}`, { pattern: 'T-(?P<id>[0-9]+)', url_template: 'https://t2.example/{id}' });
    expect(moved.status).toBe(200);
    expect((await list())[0]).toMatchObject({ example_input: 'T-7', reverse_template: 'T-{id}', url_template: 'https://t2.example/{id}' });
    const broken = await t.client(t.owner).patch(`/realm/filters/${id}`, { pattern: 'U-(?P<id>[0-9]+)', url_template: 'https://t.example/{id}' });
    expectError(broken, 'Example input does not match the linkifier pattern.');
    expect((await list())[0]).toMatchObject({ pattern: 'T-(?P<id>[0-9]+)', url_template: 'https://t2.example/{id}' });
  });

  it('applies every validation rule, writing nothing on failure', async () => {
    const id = await addOk(ISSUE);
    const patch = (params: Record<string, unknown>) => t.client(t.owner).patch(`/realm/filters/${id}`, params);
    expectError(await patch({ pattern: 'ZUL-(?P<id>\\d????)', url_template: 'https://realm.com/{id}' }), 'Bad regular expression: bad repetition operator: ????');
    expectError(await patch({ pattern: 'ZUL-(?P<id>\\d+)', url_template: '$fgfg' }), "Group 'id' in linkifier pattern is not present in URL template.");
    expectError(await patch({ pattern: '#(?P<id>[123])', url_template: '{id' }), 'Invalid URL template.');
    expectError(await patch({ pattern: '', url_template: 'https://x.example/' }), 'This field cannot be blank.');
    expect(await list()).toEqual([expect.objectContaining({ id, ...ISSUE })]);
  });

  it('refuses to take another linkifier\'s pattern, but keeping its own is fine', async () => {
    const first = await addOk(ISSUE);
    const second = await addOk({ pattern: 'T-(?P<id>[0-9]+)', url_template: 'https://t.example/{id}' });
    expectError(await t.client(t.owner).patch(`/realm/filters/${second}`, ISSUE), 'Realm filter with this Realm and Pattern already exists.');
    const same = await t.client(t.owner).patch(`/realm/filters/${first}`, { ...ISSUE, url_template: 'https://new.example/{id}' });
    expect(same.status).toBe(200);
  });

  it('answers "Linkifier not found." for an unknown ID', async () => {
    const id = await addOk(ISSUE);
    expectError(await t.client(t.owner).patch(`/realm/filters/${id + 1}`, ISSUE), 'Linkifier not found.');
  });
});

describe('DELETE /realm/filters/{filter_id}', () => {
  it('removes a linkifier', async () => {
    const id = await addOk(ISSUE);
    expect((await t.client(t.owner).delete(`/realm/filters/${id}`)).status).toBe(200);
    expect(await list()).toEqual([]);
  });

  it('answers "Linkifier not found." for an unknown ID', async () => {
    const id = await addOk(ISSUE);
    expectError(await t.client(t.owner).delete(`/realm/filters/${id + 1}`), 'Linkifier not found.');
    expect(await list()).toHaveLength(1);
  });
});

describe('PATCH /realm/linkifiers (reorder)', () => {
  async function three(): Promise<number[]> {
    const ids: number[] = [];
    for (const n of [1, 2, 3]) ids.push(await addOk({ pattern: `${n}#(?P<id>[123])`, url_template: `https://filter.com/${n}/{id}` }));
    return ids;
  }
  const reorder = (ids: unknown) => t.client(t.owner).patch('/realm/linkifiers', { ordered_linkifier_ids: JSON.stringify(ids) });

  it('lists linkifiers in creation order, new ones last', async () => {
    const ids = await three();
    expect((await list()).map((l) => l.id)).toEqual(ids);
  });

  it('sets a new order, which later additions and removals keep', async () => {
    const [a, b, c] = await three();
    expect((await reorder([c, a, b])).status).toBe(200);
    expect((await list()).map((l) => l.id)).toEqual([c, a, b]);
    const d = await addOk({ pattern: '4#(?P<id>[123])', url_template: 'https://filter.com/4/{id}' });
    expect((await list()).map((l) => l.id)).toEqual([c, a, b, d]);
    await t.client(t.owner).delete(`/realm/filters/${a}`);
    expect((await list()).map((l) => l.id)).toEqual([c, b, d]);
  });

  it('accepts an empty list when there are no linkifiers', async () => {
    expect((await reorder([])).status).toBe(200);
  });

  it('must list every linkifier exactly once', async () => {
    const [a, b, c] = await three();
    expectError(await reorder([a, b, b, c]), 'The ordered list must not contain duplicated linkifiers');
    expectError(await reorder([a, b]), 'The ordered list must enumerate all existing linkifiers exactly once');
    expectError(await reorder([a, b, c, c! + 100]), 'The ordered list must enumerate all existing linkifiers exactly once');
    expectError(await reorder([]), 'The ordered list must enumerate all existing linkifiers exactly once');
    expect((await list()).map((l) => l.id)).toEqual([a, b, c]);
  });

  it('requires a list of integers', async () => {
    expectError(await t.client(t.owner).patch('/realm/linkifiers', {}), "Missing 'ordered_linkifier_ids' argument", 'REQUEST_VARIABLE_MISSING');
    expect((await reorder(['x'])).status).toBe(400);
  });
});

describe('permissions', () => {
  it('lets owners and administrators change linkifiers', async () => {
    const byOwner = await addOk(ISSUE);
    const byAdmin = await add({ pattern: 'A-(?P<id>[0-9]+)', url_template: 'https://a.example/{id}' }, admin);
    expect(byAdmin.status).toBe(200);
    expect((await t.client(admin).patch(`/realm/filters/${byOwner}`, { ...ISSUE, url_template: 'https://b.example/{id}' })).status).toBe(200);
    expect((await t.client(admin).patch('/realm/linkifiers', { ordered_linkifier_ids: JSON.stringify([byAdmin.body.id, byOwner]) })).status).toBe(200);
    expect((await t.client(admin).delete(`/realm/filters/${byOwner}`)).status).toBe(200);
  });

  it('refuses moderators, members and guests, writing nothing', async () => {
    const id = await addOk(ISSUE);
    for (const who of [moderator, member, guest]) {
      const denied = 'Must be an organization administrator';
      expectError(await add({ pattern: 'B-(?P<id>[0-9]+)', url_template: 'https://b.example/{id}' }, who), denied, 'UNAUTHORIZED_PRINCIPAL', 400);
      expectError(await t.client(who).patch(`/realm/filters/${id}`, { ...ISSUE, url_template: 'https://evil.example/{id}' }), denied, 'UNAUTHORIZED_PRINCIPAL', 400);
      expectError(await t.client(who).delete(`/realm/filters/${id}`), denied, 'UNAUTHORIZED_PRINCIPAL', 400);
      expectError(await t.client(who).patch('/realm/linkifiers', { ordered_linkifier_ids: JSON.stringify([id]) }), denied, 'UNAUTHORIZED_PRINCIPAL', 400);
    }
    expect(await list()).toEqual([expect.objectContaining({ id, ...ISSUE })]);
  });

  it('refuses a bot with an ordinary role, and lets an administrator bot through', async () => {
    const bot = await makeBot(t, t.owner, { fullName: 'Botty' });
    expectError(await add(ISSUE, bot), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL', 400);
    expect(await list()).toEqual([]);
    await setRole(t, bot.userId, ROLE_ADMINISTRATOR);
    expect((await add(ISSUE, bot)).status).toBe(200);
  });

  it('lets every role read the list', async () => {
    const id = await addOk(ISSUE);
    for (const who of [admin, moderator, member, guest]) expect((await list(who)).map((l) => l.id)).toEqual([id]);
  });

  it('keeps organizations apart', async () => {
    const id = await addOk(ISSUE);
    const other = t.client(outsider, OTHER);
    expect((await other.get('/realm/linkifiers')).body.linkifiers).toEqual([]);
    expectError(await other.patch(`/realm/filters/${id}`, { ...ISSUE, url_template: 'https://evil.example/{id}' }), 'Linkifier not found.');
    expectError(await other.delete(`/realm/filters/${id}`), 'Linkifier not found.');
    expectError(await other.patch('/realm/linkifiers', { ordered_linkifier_ids: JSON.stringify([id]) }), 'The ordered list must enumerate all existing linkifiers exactly once');
    // The same pattern may exist in both organizations.
    expect((await other.post('/realm/filters', ISSUE)).status).toBe(200);
    expect(await list()).toEqual([expect.objectContaining({ id, ...ISSUE })]);
    expect((await other.get('/realm/linkifiers')).body.linkifiers).toHaveLength(1);
  });

  it('requires authentication', async () => {
    expect((await t.client().get('/realm/linkifiers')).status).toBe(401);
    expect((await t.client().post('/realm/filters', ISSUE)).status).toBe(401);
  });
});

describe('rendering', () => {
  it('links matches in new messages', async () => {
    await addOk(ISSUE);
    expect(await rendered('see #123.')).toBe('<p>see <a href="https://github.com/zulip/zulip/issues/123">#123</a>.</p>');
  });

  it('takes effect at once after a change and stops after removal', async () => {
    const id = await addOk(ISSUE);
    expect(await rendered('#1')).toContain('https://github.com/zulip/zulip/issues/1');
    await t.client(t.owner).patch(`/realm/filters/${id}`, { ...ISSUE, url_template: 'https://tracker.example/{id}' });
    expect(await rendered('#2')).toBe('<p><a href="https://tracker.example/2">#2</a></p>');
    await t.client(t.owner).delete(`/realm/filters/${id}`);
    expect(await rendered('#3')).toBe('<p>#3</p>');
  });

  it('applies linkifiers in their order: an earlier one wins an overlap', async () => {
    const broad = await addOk({ pattern: '(?P<key>[A-Z]+)-(?P<num>[0-9]+)', url_template: 'https://jira.example/{key}-{num}' });
    const narrow = await addOk({ pattern: 'ZUL-(?P<id>[0-9]+)', url_template: 'https://zulip.example/{id}' });
    expect(await rendered('ZUL-9')).toBe('<p><a href="https://jira.example/ZUL-9">ZUL-9</a></p>');
    await t.client(t.owner).patch('/realm/linkifiers', { ordered_linkifier_ids: JSON.stringify([narrow, broad]) });
    expect(await rendered('ZUL-9')).toBe('<p><a href="https://zulip.example/9">ZUL-9</a></p>');
  });

  it('expands RFC 6570 operators and percent-encodes values', async () => {
    await addOk({ pattern: 'find:(?P<q>[a-z&]+)', url_template: 'https://search.example/{?q}' });
    expect(await rendered('find:a&b')).toBe('<p><a href="https://search.example/?q=a%26b">find:a&amp;b</a></p>');
  });

  it('runs a pathological pattern through RE2 without backtracking', async () => {
    await addOk({ pattern: '(?P<x>(a+)+)$', url_template: 'https://re2.example/{x}' });
    // (Messages are cut at 10,000 characters.)
    const long = 'a'.repeat(9_000);
    // A backtracking engine tries exponentially many splits of the run before giving up on the "b".
    expect(await rendered(`${long}b`)).toBe(`<p>${long}b</p>`);
    expect(await rendered('x aaa')).toBe('<p>x <a href="https://re2.example/aaa">aaa</a></p>');
  });

  it('links nothing inside code or existing links', async () => {
    await addOk(ISSUE);
    expect(await rendered('`#7` [x #8](https://a.example)')).toBe('<p><code>#7</code> <a href="https://a.example">x #8</a></p>');
  });
});

describe('topic links', () => {
  async function topicLinks(topic: string) {
    const id = await sendToChannel(t.client(member), 'general', topic, 'hello');
    const res = await t.client(member).get(`/messages/${id}`);
    return res.body.message.topic_links as { text: string; url: string }[];
  }

  it('lists linkifier matches in the topic, left to right', async () => {
    await addOk({ pattern: 'T-(?P<id>[0-9]+)', url_template: 'https://t.example/{id}' });
    await addOk(ISSUE);
    expect(await topicLinks('fix #12 and T-5')).toEqual([
      { text: '#12', url: 'https://github.com/zulip/zulip/issues/12' },
      { text: 'T-5', url: 'https://t.example/5' },
    ]);
    expect(await topicLinks('nothing here')).toEqual([]);
  });

  it('lets the earlier linkifier win an overlap', async () => {
    const broad = await addOk({ pattern: '(?P<key>[A-Z]+)-(?P<num>[0-9]+)', url_template: 'https://jira.example/{key}-{num}' });
    const narrow = await addOk({ pattern: 'ZUL-(?P<id>[0-9]+)', url_template: 'https://zulip.example/{id}' });
    expect(await topicLinks('ZUL-9')).toEqual([{ text: 'ZUL-9', url: 'https://jira.example/ZUL-9' }]);
    await t.client(t.owner).patch('/realm/linkifiers', { ordered_linkifier_ids: JSON.stringify([narrow, broad]) });
    expect(await topicLinks('ZUL-9')).toEqual([{ text: 'ZUL-9', url: 'https://zulip.example/9' }]);
  });

  it('include bare URLs, https when no scheme is given; a linkifier match wins an overlap', async () => {
    expect(await topicLinks('see https://example.com/a?b=1 and zulip.org')).toEqual([
      { text: 'https://example.com/a?b=1', url: 'https://example.com/a?b=1' },
      { text: 'zulip.org', url: 'https://zulip.org' },
    ]);
    await addOk({ pattern: 'https://example\\.com/issue/(?P<id>[0-9]+)', url_template: 'https://tracker.example/{id}' });
    expect(await topicLinks('https://example.com/issue/4')).toEqual([{ text: 'https://example.com/issue/4', url: 'https://tracker.example/4' }]);
    expect(await topicLinks('mail boss@example.com')).toEqual([]);
  });

  it('come with a topic change in the update_message event', async () => {
    await addOk(ISSUE);
    const id = await sendToChannel(t.client(member), 'general', 'plain', 'hello');
    const q = await registerQueue(t.client(member), { event_types: ['update_message'] });
    const res = await t.client(member).patch(`/messages/${id}`, { topic: 'now #88' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const events = await allEvents(t.client(member), q.queue_id);
    expect(events[0]).toMatchObject({ type: 'update_message', subject: 'now #88', topic_links: [{ text: '#88', url: 'https://github.com/zulip/zulip/issues/88' }] });
    expect((await t.client(member).get(`/messages/${id}`)).body.message.topic_links).toEqual([{ text: '#88', url: 'https://github.com/zulip/zulip/issues/88' }]);
  });

  it('are sent in the message event too', async () => {
    await addOk(ISSUE);
    const q = await registerQueue(t.client(member), { event_types: ['message'] });
    await sendToChannel(t.client(member), 'general', 'see #77', 'hello');
    const events = await allEvents(t.client(member), q.queue_id);
    expect(events[0]!.message.topic_links).toEqual([{ text: '#77', url: 'https://github.com/zulip/zulip/issues/77' }]);
  });
});

describe('realm_linkifiers events and register', () => {
  it('sends the full list to clients with linkifier_url_template, after each change', async () => {
    const capable = await register(t.client(member), { linkifier_url_template: true });
    const legacy = await register(t.client(guest));
    const id = await addOk(ISSUE);
    await t.client(t.owner).patch(`/realm/filters/${id}`, { ...ISSUE, url_template: 'https://b.example/{id}' });
    const second = await addOk({ pattern: 'T-(?P<id>[0-9]+)', url_template: 'https://t.example/{id}' });
    await t.client(t.owner).patch('/realm/linkifiers', { ordered_linkifier_ids: JSON.stringify([second, id]) });
    await t.client(t.owner).delete(`/realm/filters/${id}`);
    const events = await allEvents(t.client(member), capable.queue_id);
    expect(events.map((e) => e.type)).toEqual(Array(5).fill('realm_linkifiers'));
    const full = (l: Record<string, unknown>) => ({ example_input: null, reverse_template: null, alternative_url_templates: [], ...l });
    expect(events[0]!.realm_linkifiers).toEqual([full({ id, ...ISSUE })]);
    expect(events[1]!.realm_linkifiers).toEqual([full({ id, pattern: ISSUE.pattern, url_template: 'https://b.example/{id}' })]);
    expect(events[3]!.realm_linkifiers.map((l: { id: number }) => l.id)).toEqual([second, id]);
    expect(events[4]!.realm_linkifiers).toEqual([full({ id: second, pattern: 'T-(?P<id>[0-9]+)', url_template: 'https://t.example/{id}' })]);
    // Neither realm_linkifiers nor the legacy realm_filters reach clients without the capability.
    expect(await allEvents(t.client(guest), legacy.queue_id)).toEqual([]);
  });

  it('sends nothing for a refused change or an empty reorder', async () => {
    const q = await register(t.client(member), { linkifier_url_template: true });
    await add({ pattern: '(', url_template: 'https://x.example/' });
    await add(ISSUE, member);
    await t.client(t.owner).patch('/realm/linkifiers', { ordered_linkifier_ids: '[]' });
    expect(await allEvents(t.client(member), q.queue_id)).toEqual([]);
  });

  it('gives register\'s realm_linkifiers only to capable clients; realm_filters is always empty', async () => {
    const id = await addOk({ ...ISSUE, example_input: '#5', reverse_template: '#{id}' });
    const capable = await register(t.client(member), { linkifier_url_template: true });
    expect(capable.realm_linkifiers).toEqual([{ id, ...ISSUE, example_input: '#5', reverse_template: '#{id}', alternative_url_templates: [] }]);
    expect(capable.realm_filters).toEqual([]);
    const legacy = await register(t.client(member));
    expect(legacy.realm_linkifiers).toEqual([]);
    expect(legacy.realm_filters).toEqual([]);
  });

  it('does not reach another organization', async () => {
    const q = await register(t.client(outsider, OTHER), { linkifier_url_template: true });
    await addOk(ISSUE);
    expect(await allEvents(t.client(outsider, OTHER), q.queue_id)).toEqual([]);
  });
});
