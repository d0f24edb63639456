// Incoming webhooks (Zulip's /api/v1/external/<integration>): what third parties call with a bot's
// API key. Credentials (the `api_key` parameter alone, or Basic), where the messages go (`stream` by
// name or ID, `topic`, else the bot's owner), the owner told of what the third party cannot mend (a
// missing channel, malformed JSON, at most every five minutes), event filters, the errors, and the
// same through GraphQL. Each integration's messages are tested in test/unit/webhooks/.
import { describe, expect, it } from 'vitest';
import { useBot, useTeam, useTestServer } from '../support/fixtures.ts';
import { makeBot, makeChannel } from '../support/factories.ts';
import { ADMIN_EMAIL } from '../support/server.ts';
import { graphql, type ApiClient, type Credentials } from '../support/client.ts';
import { registerQueue } from '../support/events.ts';

const t = useTestServer();
const { alice, bob } = useTeam(t, ['alice', 'bob']);
const INCOMING_WEBHOOK = 2;
const hookBot = useBot(t, () => alice, { fullName: 'Hook Bot', botType: INCOMING_WEBHOOK });
const chattyBot = useBot(t, () => bob, { fullName: 'Chatty Bot', botType: INCOMING_WEBHOOK });

interface HookCall {
  apiKey?: string;
  query?: Record<string, string>;
  body?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

async function hook(integration: string, call: HookCall): Promise<{ status: number; body: any }> {
  const url = new URL(`${t.baseUrl}/api/v1/external/${integration}`);
  if (call.apiKey !== undefined) url.searchParams.set('api_key', call.apiKey);
  for (const [k, v] of Object.entries(call.query ?? {})) url.searchParams.set(k, v);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': call.contentType ?? 'application/json', ...call.headers },
    body: call.body ?? '{}',
  });
  return { status: res.status, body: await res.json() };
}

async function newest(client: ApiClient, narrow: unknown[]): Promise<any> {
  const res = await client.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow, apply_markdown: false });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.messages.at(-1);
}

const fromNotificationBot = (client: ApiClient) => newest(client, [{ operator: 'sender', operand: 'notification-bot@zulip.com' }]);
const lastDmFrom = (client: ApiClient, sender: Credentials) => newest(client, [{ operator: 'dm', operand: [sender.userId] }]);

describe('POST /external/{integration}', () => {
  it('posts to the channel and topic of the URL, as the bot, with the integration as its client', async () => {
    await makeChannel(t.client(alice), 'deploys');
    const res = await hook('json', { apiKey: hookBot.apiKey, query: { stream: 'deploys', topic: 'builds' }, body: '{"build": 12, "ok": true}' });
    expect(res).toEqual({ status: 200, body: { result: 'success', msg: '' } });
    const message = await newest(t.client(alice), [{ operator: 'channel', operand: 'deploys' }]);
    expect(message).toMatchObject({
      sender_id: hookBot.userId, subject: 'builds', client: 'ZulipJSONWebhook',
      content: '```json\n{\n  "build": 12,\n  "ok": true\n}\n```',
    });
  });

  it("uses the integration's topic when the URL names none, and takes the channel by ID", async () => {
    const id = await makeChannel(t.client(alice), 'by-id');
    expect((await hook('json', { apiKey: hookBot.apiKey, query: { stream: String(id) }, body: '{"a": "é"}' })).status).toBe(200);
    const message = await newest(t.client(alice), [{ operator: 'channel', operand: id }]);
    // Python's json.dumps escapes what is not ASCII.
    expect(message).toMatchObject({ subject: 'JSON', content: '```json\n{\n  "a": "\\u00e9"\n}\n```' });
  });

  it("without a channel, sends the messages to the bot's owner", async () => {
    expect((await hook('json', { apiKey: hookBot.apiKey, body: '{"to": "owner"}' })).status).toBe(200);
    const message = await lastDmFrom(t.client(alice), hookBot);
    expect(message).toMatchObject({ sender_id: hookBot.userId, type: 'private', content: '```json\n{\n  "to": "owner"\n}\n```' });
    expect(message.display_recipient.map((r: { id: number }) => r.id).sort()).toEqual([alice.userId, hookBot.userId].sort());
  });

  it('takes Basic credentials as well as the api_key parameter', async () => {
    await makeChannel(t.client(alice), 'basic-auth');
    const res = await hook('json', {
      query: { stream: 'basic-auth' }, body: '{"via": "basic"}',
      headers: { authorization: 'Basic ' + Buffer.from(`${hookBot.email}:${hookBot.apiKey}`).toString('base64') },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await newest(t.client(alice), [{ operator: 'channel', operand: 'basic-auth' }])).content).toContain('"via": "basic"');
  });

  it('refuses missing and wrong keys, and unknown integrations', async () => {
    expect(await hook('json', { query: { stream: 'deploys' } })).toEqual({
      status: 400, body: { result: 'error', msg: "Missing 'api_key' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'api_key' },
    });
    // The api_key parameter's refusals keep their code (Basic credentials answer UNAUTHORIZED).
    expect(await hook('json', { apiKey: 'x'.repeat(32) })).toMatchObject({ status: 401, body: { result: 'error', msg: 'Invalid API key', code: 'INVALID_API_KEY' } });
    const wrongBasic = await hook('json', { headers: { authorization: 'Basic ' + Buffer.from(`${hookBot.email}:${'y'.repeat(32)}`).toString('base64') } });
    expect(wrongBasic).toMatchObject({ status: 401, body: { result: 'error', msg: 'Invalid API key', code: 'UNAUTHORIZED' } });
    expect(await hook('no-such-integration', { apiKey: hookBot.apiKey })).toMatchObject({ status: 404, body: { result: 'error' } });
  });

  it('refuses a deactivated bot', async () => {
    const bot = await makeBot(t, alice, { fullName: 'Short Lived', botType: INCOMING_WEBHOOK });
    expect((await t.client(alice).delete(`/bots/${bot.userId}`)).status).toBe(200);
    expect(await hook('json', { apiKey: bot.apiKey })).toMatchObject({ status: 401, body: { code: 'USER_DEACTIVATED' } });
  });

  it('refuses a body that is not a JSON object, with Zulip\'s wording', async () => {
    expect(await hook('json', { apiKey: chattyBot.apiKey, body: '[1, 2]' })).toEqual({
      status: 400, body: { result: 'error', msg: 'payload is not a dict', code: 'BAD_REQUEST' },
    });
  });

  it('lets a person use an integration too: without a channel, the messages reach themselves', async () => {
    expect((await hook('json', { apiKey: bob.apiKey, body: '{"note": 1}' })).status).toBe(200);
    const message = await newest(t.client(bob), [{ operator: 'dm', operand: [bob.userId] }]);
    expect(message).toMatchObject({ sender_id: bob.userId, content: '```json\n{\n  "note": 1\n}\n```' });
  });

  it('keeps the rules of sending: a bot cannot post to a private channel its owner is not in', async () => {
    await makeChannel(t.client(bob), 'bob-private', { invite_only: true });
    const res = await hook('json', { apiKey: hookBot.apiKey, query: { stream: 'bob-private' } });
    expect(res.status).toBe(400);
    expect(res.body.result).toBe('error');
  });
});

describe("telling the bot's owner", () => {
  it('answers success for a channel that does not exist, and tells the owner once per five minutes', async () => {
    const [first, second] = await Promise.all([
      hook('json', { apiKey: chattyBot.apiKey, query: { stream: 'nowhere' } }),
      hook('json', { apiKey: chattyBot.apiKey, query: { stream: 'nowhere-else' } }),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const notices = await t.client(bob).get('/messages', {
      anchor: 'newest', num_before: 10, num_after: 0, apply_markdown: false,
      narrow: [{ operator: 'sender', operand: 'notification-bot@zulip.com' }, { operator: 'search', operand: 'tried' }],
    });
    const mine = notices.body.messages.filter((m: { content: string }) => m.content.includes(chattyBot.email));
    expect(mine).toHaveLength(1);
    expect(mine[0].content).toMatch(new RegExp(
      `^Your bot \`${chattyBot.email}\` tried to send a message to channel #\\*\\*nowhere(-else)?\\*\\*, but that channel does not exist\\. Click \\[here\\]\\(#channels/new\\) to create it\\.$`,
    ));

    // Five minutes later it may remind again.
    await t.db.user.update({ where: { id: chattyBot.userId }, data: { lastReminder: new Date(Date.now() - 6 * 60_000) } });
    expect((await hook('json', { apiKey: chattyBot.apiKey, query: { stream: '987654' } })).status).toBe(200);
    expect((await fromNotificationBot(t.client(bob))).content)
      .toBe(`Your bot \`${chattyBot.email}\` tried to send a message to channel ID 987654, but there is no channel with that ID.`);
  });

  it('tells the owner when the body is not JSON, and answers Malformed JSON', async () => {
    await t.db.user.update({ where: { id: chattyBot.userId }, data: { lastReminder: null } });
    expect(await hook('json', { apiKey: chattyBot.apiKey, body: 'not json' })).toEqual({
      status: 400, body: { result: 'error', msg: 'Malformed JSON', code: 'INVALID_JSON' },
    });
    expect((await fromNotificationBot(t.client(bob))).content).toBe([
      'Hi there! It looks like you tried to set up the Zulip JSON integration,',
      "but didn't correctly configure the webhook to send data in the JSON format",
      'that this integration expects!',
    ].join('\n'));
  });

  it('tells the owner when a payload the user writes themselves (Zabbix) lacks a field, and answers Invalid payload', async () => {
    await t.db.user.update({ where: { id: chattyBot.userId }, data: { lastReminder: null } });
    expect(await hook('zabbix', { apiKey: chattyBot.apiKey, query: { stream: 'nowhere' }, body: '{"status": "PROBLEM"}' })).toEqual({
      status: 400, body: { result: 'error', msg: 'Invalid payload', code: 'BAD_REQUEST' },
    });
    expect((await fromNotificationBot(t.client(bob))).content).toBe([
      'Hi there! Your bot Chatty Bot just received a Zabbix payload that is missing',
      'some data that Zulip requires. This usually indicates a configuration issue',
      'in your Zabbix webhook settings. Please make sure that you set the',
      'script correctly and provide all the required parameters',
      `when configuring the Zabbix webhook. Contact ${ADMIN_EMAIL} if you`,
      'need further help!',
    ].join('\n'));
  });

  it('posts to a channel nobody is subscribed to, and tells the owner', async () => {
    await makeChannel(t.client(bob), 'deserted');
    expect((await t.client(bob).delete('/users/me/subscriptions', { subscriptions: ['deserted'] })).status).toBe(200);
    await t.db.user.update({ where: { id: chattyBot.userId }, data: { lastReminder: null } });
    expect((await hook('json', { apiKey: chattyBot.apiKey, query: { stream: 'deserted' }, body: '{"lost": true}' })).status).toBe(200);
    expect((await fromNotificationBot(t.client(bob))).content)
      .toBe(`Your bot \`${chattyBot.email}\` tried to send a message to channel #**deserted**. The channel exists but does not have any subscribers.`);
    expect((await newest(t.client(bob), [{ operator: 'channel', operand: 'deserted' }])).content).toContain('"lost": true');
  });
});

describe('GraphQL', () => {
  it('deliverWebhook does what the URL does', async () => {
    await makeChannel(t.client(alice), 'graphql-hooks');
    const res = await graphql(t.baseUrl, `mutation($r: WebhookRequestInput!) {
      deliverWebhook(integration: "json", request: $r, stream: "graphql-hooks", topic: "gql") { messageIds sender { userId } }
    }`, { r: { body: '{"from": "graphql"}', headers: { 'Content-Type': 'application/json' } } }, hookBot);
    const message = await newest(t.client(alice), [{ operator: 'channel', operand: 'graphql-hooks' }]);
    expect(message).toMatchObject({ subject: 'gql', client: 'ZulipJSONWebhook' });
    expect(res.body, JSON.stringify(res.body)).toEqual({ data: { deliverWebhook: { messageIds: [message.id], sender: null } } });
  });

  it('refuses callers without credentials, and integrations that do not exist', async () => {
    const anonymous = await graphql(t.baseUrl, 'mutation { deliverWebhook(integration: "json", request: { body: "{}" }) { messageIds } }');
    expect(anonymous.body.errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED');
    const unknown = await graphql(t.baseUrl, '{ checkWebhookUrl(integration: "no-such-integration") }', {}, hookBot);
    expect(unknown.body.errors?.[0]).toMatchObject({ message: 'Endpoint not found' });
  });

  it('refuses headers that are not an object of strings', async () => {
    const res = await graphql(t.baseUrl, 'mutation { deliverWebhook(integration: "json", request: { body: "{}", headers: [1] }) { messageIds } }', {}, hookBot);
    expect(res.body.errors?.[0]).toMatchObject({ message: 'headers must be an object of strings' });
  });

  it('lists the integrations, as register does', async () => {
    const res = await graphql(t.baseUrl, '{ incomingWebhookIntegrations { name displayName allEventTypes urlOptions { key } } }', {}, alice);
    expect(res.body.data.incomingWebhookIntegrations).toContainEqual({ name: 'json', displayName: 'JSON', allEventTypes: null, urlOptions: [] });
    const state = await registerQueue(t.client(alice), { fetch_event_types: ['realm_incoming_webhook_bots'], event_types: ['message'] });
    expect(state.realm_incoming_webhook_bots).toContainEqual({ name: 'json', display_name: 'JSON', all_event_types: null, config_options: [], url_options: [] });
  });
});

describe('integrations through HTTP', () => {
  const SHA = '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c';
  const COMPARE = 'https://github.com/octo/hello/compare/9049f1265b7d...0d1a26e67d8f';
  const repository = { name: 'hello', full_name: 'octo/hello', html_url: 'https://github.com/octo/hello', private: false };
  const push = JSON.stringify({
    ref: 'refs/heads/main', before: '9049f1265b7d61be4a8904a9a27120d2064dab3b', after: SHA, created: false, deleted: false, forced: false,
    compare: COMPARE, repository, sender: { login: 'octocat', html_url: 'https://github.com/octocat' },
    commits: [{ id: SHA, message: 'Fix the build', url: `https://github.com/octo/hello/commit/${SHA}`, author: { name: 'octocat', email: 'o@example.com', username: 'octocat' } }],
  });
  const PUSHED = `octocat [pushed](${COMPARE}) 1 commit to branch main.\n\n* Fix the build ([0d1a26e67d8](https://github.com/octo/hello/commit/${SHA}))`;
  const github = (headers: Record<string, string>, query: Record<string, string> = {}) =>
    hook('github', { apiKey: chattyBot.apiKey, query: { stream: 'code', ...query }, body: push, headers });
  const newestInCode = () => newest(t.client(bob), [{ operator: 'channel', operand: 'code' }]);

  it("posts GitHub's push under the repository and branch", async () => {
    await makeChannel(t.client(bob), 'code');
    expect(await github({ 'X-GitHub-Event': 'push' })).toEqual({ status: 200, body: { result: 'success', msg: '' } });
    expect(await newestInCode()).toMatchObject({ sender_id: chattyBot.userId, subject: 'hello / main', content: PUSHED, client: 'ZulipGitHubWebhook' });
  });

  it('sends only the event types only_events matches, and none exclude_events matches (shell-style patterns)', async () => {
    const before = (await newestInCode()).id;
    expect((await github({ 'X-GitHub-Event': 'push' }, { only_events: '["pull_request*", "issue*"]' })).status).toBe(200);
    expect((await github({ 'X-GitHub-Event': 'push' }, { exclude_events: '["push_[ct]*"]' })).status).toBe(200);
    expect((await newestInCode()).id).toBe(before);
    expect((await github({ 'X-GitHub-Event': 'push' }, { only_events: '["push_commit?"]', exclude_events: '["issues"]' })).status).toBe(200);
    expect((await newestInCode()).id).toBeGreaterThan(before);
  });

  it('refuses event filters that are not lists of strings', async () => {
    expect(await github({ 'X-GitHub-Event': 'push' }, { only_events: 'push' })).toMatchObject({ status: 400, body: { result: 'error', code: 'BAD_REQUEST' } });
    expect(await github({ 'X-GitHub-Event': 'push' }, { exclude_events: '[1]' })).toMatchObject({ status: 400, body: { msg: 'exclude_events[0] is not a string' } });
  });

  it('answers an event the integration has no message for with 200 and says so, sending nothing', async () => {
    const before = (await newestInCode()).id;
    const res = await hook('github', { apiKey: chattyBot.apiKey, query: { stream: 'code' }, body: '{"action": "completed", "workflow_run": {}}', headers: { 'X-GitHub-Event': 'workflow_run' } });
    expect(res).toEqual({
      status: 200,
      body: {
        result: 'error', code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE', webhook_name: 'GitHub', event_type: 'workflow_run:completed',
        msg: "The 'workflow_run:completed' event isn't currently supported by the GitHub webhook; ignoring",
      },
    });
    expect((await newestInCode()).id).toBe(before);
  });

  it("refuses a request without the integration's event header, and tells the owner why", async () => {
    await t.db.user.update({ where: { id: chattyBot.userId }, data: { lastReminder: null } });
    expect(await github({})).toEqual({
      status: 400, body: { result: 'error', msg: "Missing the HTTP event header 'X-GitHub-Event'", code: 'MISSING_HTTP_EVENT_HEADER', header: 'X-GitHub-Event' },
    });
    expect((await fromNotificationBot(t.client(bob))).content).toBe([
      'Hi there!  Your bot Chatty Bot just sent an HTTP request to /api/v1/external/github that',
      'is missing the HTTP X-GitHub-Event header.  Because this header is how',
      'GitHub indicates the event type, this usually indicates a configuration',
      'issue, where you either entered the URL for a different integration, or are running',
      "an older version of the third-party service that doesn't provide that header.",
      `Contact ${ADMIN_EMAIL} if you need help debugging!`,
    ].join('\n'));
  });

  it("names Jira's assignee as the organization knows them, and decodes Atlassian's doubly escaped channel and topic", async () => {
    await makeChannel(t.client(bob), 'jira alerts');
    const aliceEmail = (await t.client(alice).get('/users/me')).body.delivery_email ?? alice.email;
    const body = JSON.stringify({
      webhookEvent: 'jira:issue_updated', user: { name: 'leo', displayName: 'Leo Franchi' },
      issue: { key: 'BUG-15', self: 'https://jira.example.com/rest/api/2/issue/10400', fields: { summary: 'Crash', assignee: { emailAddress: aliceEmail } } },
      changelog: { items: [{ field: 'priority', fromString: 'Critical', toString: 'Major' }] },
    });
    // What Jira sends for "jira alerts" / "a b": escaped twice.
    const url = `${t.baseUrl}/api/v1/external/jira?api_key=${chattyBot.apiKey}&stream=jira%2520alerts&topic=a%2520b`;
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status, await res.clone().text()).toBe(200);
    const message = await newest(t.client(bob), [{ operator: 'channel', operand: 'jira alerts' }]);
    expect(message).toMatchObject({ subject: 'a b', client: 'ZulipJiraWebhook' });
    expect(message.content).toBe(`Leo Franchi updated [BUG-15: Crash](https://jira.example.com/browse/BUG-15) (assigned to **${alice.fullName}**):\n\n* Changed priority from **Critical** to **Major**`);
  });

  it("answers Zapier's credentials check with who the key names, sending nothing", async () => {
    const res = await hook('zapier', { apiKey: chattyBot.apiKey, query: { stream: 'code' }, body: '{"type": "auth"}' });
    expect(res).toEqual({
      status: 200, body: { result: 'success', msg: '', full_name: 'Chatty Bot', email: chattyBot.email, id: chattyBot.userId },
    });
  });

  it("answers Trello's HEAD check once the key passes; integrations without one take only POST", async () => {
    const head = (integration: string, apiKey?: string) => fetch(`${t.baseUrl}/api/v1/external/${integration}${apiKey ? `?api_key=${apiKey}` : ''}`, { method: 'HEAD' });
    expect((await head('trello', chattyBot.apiKey)).status).toBe(200);
    expect((await head('trello')).status).toBe(400);
    expect((await head('trello', 'z'.repeat(32))).status).toBe(401);
    expect((await head('github', chattyBot.apiKey)).status).toBe(405);
    const res = await graphql(t.baseUrl, '{ trello: checkWebhookUrl(integration: "trello") }', {}, chattyBot);
    expect(res.body).toEqual({ data: { trello: true } });
  });

  it("answers Slack's senders in Slack's form", async () => {
    const ok = await hook('slack_incoming', { apiKey: chattyBot.apiKey, query: { stream: 'code', topic: 'slack' }, body: '{"text": "*deployed*"}' });
    expect(ok).toEqual({ status: 200, body: { result: 'success', msg: '', ok: true } });
    expect(await newestInCode()).toMatchObject({ subject: 'slack', content: '**deployed**' });
    const bad = await hook('slack_incoming', { apiKey: chattyBot.apiKey, query: { stream: 'code' }, body: 'not json' });
    expect(bad).toEqual({ status: 400, body: { ok: false, error: 'Malformed JSON' } });
  });

  it("sends TeamCity's personal build to the person who started it, whatever the URL's channel", async () => {
    const log = 'http://teamcity/viewLog.html?buildTypeId=P_C&buildId=1';
    const body = JSON.stringify({
      build: {
        buildFullName: 'P :: C', buildName: 'C', buildStatusUrl: log, buildNumber: '7', buildResult: 'success', buildResultDelta: 'fixed',
        buildStatus: 'ok', triggeredBy: `${alice.fullName};alice`, notifyType: 'buildFinished',
        teamcityProperties: [{ name: 'env.BUILD_IS_PERSONAL', value: 'true' }, { name: 'teamcity.build.triggeredBy.username', value: 'alice' }],
      },
    });
    const res = await hook('teamcity', { apiKey: chattyBot.apiKey, query: { stream: 'code' }, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const message = await newest(t.client(alice), [{ operator: 'dm', operand: [chattyBot.userId] }]);
    expect(message).toMatchObject({ sender_id: chattyBot.userId, type: 'private' });
    expect(message.content).toMatch(/^Your personal build for P :: C build 7 has been fixed!/);
  });

  it("filters Grafana's alerts one by one, by their own status", async () => {
    await makeChannel(t.client(bob), 'alerts');
    const alert = (status: string, name: string) => ({
      status, labels: { alertname: name }, annotations: {}, startsAt: '2022-08-31T05:54:04Z', endsAt: '0001-01-01T00:00:00Z',
      generatorURL: '', fingerprint: name, silenceURL: 'https://grafana.example.com/silence', dashboardURL: '', panelURL: '', valueString: '',
    });
    const body = JSON.stringify({ receiver: 'Zulip', status: 'firing', orgId: 1, version: '1', alerts: [alert('firing', 'Disk'), alert('resolved', 'CPU')] });
    expect((await hook('grafana', { apiKey: chattyBot.apiKey, query: { stream: 'alerts', only_events: '["firing"]' }, body })).status).toBe(200);
    const res = await t.client(bob).get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'channel', operand: 'alerts' }] });
    expect(res.body.messages.map((m: { subject: string }) => m.subject)).toEqual(['[Disk]']);
  });
});
