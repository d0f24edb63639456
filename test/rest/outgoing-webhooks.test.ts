// Service bots at work: an outgoing-webhook bot mentioned in a channel or sent a direct message POSTs
// Zulip's payload to a local HTTP receiver started here, and the receiver's `{"content": ...}` comes
// back as the bot's reply in the same topic or conversation; failures (error statuses, bad JSON,
// nobody listening) reach the bot's owner as a direct message and never fail the sending. Embedded
// bots answer from inside the server.
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, sendDirect, sendToChannel } from '../support/factories.ts';
import type { ApiClient } from '../support/client.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

interface Received { path: string; contentType: string; body: string }

let receiver: http.Server;
let receiverUrl: string;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => { body += chunk; });
    req.on('end', () => {
      received.push({ path: req.url ?? '', contentType: req.headers['content-type'] ?? '', body });
      const answer = answers.get(req.url ?? '') ?? { status: 200, body: '' };
      res.writeHead(answer.status, { 'Content-Type': 'application/json' });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
});
// Registered before the server: afterAll hooks unwind in reverse, so the server closes first.
afterAll(async () => {
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});
const t = useTestServer();
const { alice, bob } = useTeam(t, ['alice', 'bob'], { alice: { fullName: 'Alice' } });
const received: Received[] = [];
/** What the receiver answers, by request path. */
const answers = new Map<string, { status: number; body: string }>();

let n = 0;
async function hookBot(owner: ApiClient, path: string, extra: Record<string, unknown> = {}): Promise<{ id: number; name: string; email: string; token: string }> {
  n += 1;
  const name = `Hook ${n}`;
  const res = await owner.post('/bots', { full_name: name, short_name: `hook${n}`, bot_type: 3, payload_url: JSON.stringify(receiverUrl + path), ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const register = await owner.post('/register', { fetch_event_types: ['realm_bot'] });
  const record = register.body.realm_bots.find((b: any) => b.user_id === res.body.user_id);
  return { id: res.body.user_id, name, email: record.email, token: record.services[0].token };
}
async function settle(): Promise<void> {
  await t.server.serviceBots.idle();
}
async function messagesIn(c: ApiClient, narrow: unknown[]): Promise<any[]> {
  const res = await c.get('/messages', { anchor: 'newest', num_before: 20, num_after: 0, narrow: JSON.stringify(narrow), apply_markdown: false });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.messages;
}

describe('outgoing webhook bots', () => {
  it('post Zulip\'s payload when mentioned in a channel, and reply in the same topic', async () => {
    const a = t.client(alice);
    const bot = await hookBot(a, '/mention');
    answers.set('/mention', { status: 200, body: JSON.stringify({ content: 'Hello from the hook' }) });
    await makeChannel(a, 'hooks');
    const id = await sendToChannel(a, 'hooks', 'questions', `@**${bot.name}** what is up?`);
    await settle();
    const request = received.find((r) => r.path === '/mention')!;
    expect(request.contentType).toMatch(/^application\/json/);
    const payload = JSON.parse(request.body);
    expect(payload).toMatchObject({
      data: `@**${bot.name}** what is up?`, token: bot.token, trigger: 'mention', bot_email: bot.email, bot_full_name: bot.name,
      message: { id, sender_id: alice.userId, sender_email: alice.email, type: 'stream', display_recipient: 'hooks', subject: 'questions', content: `@**${bot.name}** what is up?` },
    });
    expect(payload.message.rendered_content).toContain('user-mention');
    const replies = (await messagesIn(a, [{ operator: 'channel', operand: 'hooks' }, { operator: 'topic', operand: 'questions' }])).filter((m) => m.sender_id === bot.id);
    expect(replies.map((m) => m.content)).toEqual(['Hello from the hook']);
  });

  it('post direct messages sent to them with the direct_message trigger, and reply in the conversation', async () => {
    const b = t.client(bob);
    const bot = await hookBot(b, '/dm');
    answers.set('/dm', { status: 200, body: JSON.stringify({ content: 'Private answer' }) });
    await sendDirect(b, [bot.id], 'ping');
    await settle();
    const payload = JSON.parse(received.find((r) => r.path === '/dm')!.body);
    expect(payload).toMatchObject({ trigger: 'direct_message', data: 'ping', message: { type: 'private' } });
    const replies = (await messagesIn(b, [{ operator: 'dm', operand: [bot.id] }])).filter((m) => m.sender_id === bot.id);
    expect(replies.map((m) => m.content)).toEqual(['Private answer']);
  });

  it('stay silent when not mentioned, for their own messages, and when the reply asks for none', async () => {
    const a = t.client(alice);
    const bot = await hookBot(a, '/quiet');
    answers.set('/quiet', { status: 200, body: JSON.stringify({ response_not_required: true }) });
    await sendToChannel(a, 'general', 'chatter', 'no mention here');
    await settle();
    expect(received.filter((r) => r.path === '/quiet')).toHaveLength(0);
    await sendToChannel(a, 'general', 'chatter', `@**${bot.name}** hush`);
    await settle();
    expect(received.filter((r) => r.path === '/quiet')).toHaveLength(1);
    const fromBot = (await messagesIn(a, [{ operator: 'sender', operand: bot.id }]));
    expect(fromBot).toEqual([]);
  });

  it('use Slack\'s form fields with interface 2', async () => {
    const a = t.client(alice);
    const bot = await hookBot(a, '/slack', { interface_type: 2 });
    answers.set('/slack', { status: 200, body: JSON.stringify({ text: 'slack style' }) });
    await sendToChannel(a, 'general', 'slack', `@**${bot.name}** hi`);
    await settle();
    const request = received.find((r) => r.path === '/slack')!;
    expect(request.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    const form = new URLSearchParams(request.body);
    expect(form.get('token')).toBe(bot.token);
    expect(form.get('text')).toBe(`@**${bot.name}** hi`);
    expect(form.get('user_name')).toBe('Alice');
    expect(form.get('channel_name')).toBe('general');
    const replies = (await messagesIn(a, [{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'slack' }])).filter((m) => m.sender_id === bot.id);
    expect(replies.map((m) => m.content)).toEqual(['slack style']);
  });

  it('report failures to the bot\'s owner and never fail the sending', async () => {
    const a = t.client(alice);
    const broken = await hookBot(a, '/broken');
    answers.set('/broken', { status: 500, body: 'kaput' });
    const garbled = await hookBot(a, '/garbled');
    answers.set('/garbled', { status: 200, body: 'not json' });
    // Nobody listens on port 9 (discard) of the loopback.
    const nowhere = await t.client(alice).post('/bots', { full_name: 'Nowhere', short_name: 'nowhere', bot_type: 3, payload_url: '"http://127.0.0.1:9/"' });
    expect(nowhere.status).toBe(200);
    const b = t.client(bob);
    expect((await b.post('/messages', { type: 'channel', to: 'general', topic: 'failures', content: `@**${broken.name}** @**${garbled.name}** @**Nowhere** hi` })).status).toBe(200);
    await settle();
    const notices = await messagesIn(a, [{ operator: 'is', operand: 'dm' }]);
    const from = (id: number) => notices.filter((m) => m.sender_id === id).map((m) => m.content as string);
    expect(from(broken.id)).toEqual([expect.stringContaining('The webhook got a response with status code *500*.')]);
    expect(from(broken.id)[0]).toContain(`to your bot @_**${broken.name}** triggered an outgoing webhook.`);
    expect(from(broken.id)[0]).toContain('kaput');
    expect(from(garbled.id)).toEqual([expect.stringContaining('Invalid JSON in response')]);
    expect(from(nowhere.body.user_id)).toEqual([expect.stringContaining('A connection error occurred. Is my bot server down?')]);
    // Where the bots were asked, each says it failed.
    const inTopic = await messagesIn(b, [{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'failures' }]);
    const said = (id: number) => inTopic.filter((m) => m.sender_id === id).map((m) => m.content);
    expect(said(bob.userId)).toHaveLength(1);
    expect(said(broken.id)).toEqual(['Failure! Third party responded with 500']);
    expect(said(garbled.id)).toEqual(['Failure! Invalid JSON in response']);
    expect(said(nowhere.body.user_id)).toEqual(['Failure! Bot is unavailable']);
    // Error statuses are not retried.
    expect(received.filter((r) => r.path === '/broken')).toHaveLength(1);
  });

  it('retry a dropped connection three times before giving up', async () => {
    let connections = 0;
    const dropper = net.createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => dropper.listen(0, '127.0.0.1', resolve));
    try {
      const port = (dropper.address() as { port: number }).port;
      const res = await t.client(alice).post('/bots', { full_name: 'Dropped', short_name: 'dropped', bot_type: 3, payload_url: JSON.stringify(`http://127.0.0.1:${port}/`) });
      expect(res.status).toBe(200);
      await sendDirect(t.client(bob), [res.body.user_id], 'are you there?');
      await settle();
      expect(connections).toBe(4);
      const dm = (await messagesIn(t.client(bob), [{ operator: 'dm', operand: [res.body.user_id] }])).filter((m) => m.sender_id === res.body.user_id);
      expect(dm.map((m) => m.content)).toEqual(['Failure! Bot is unavailable']);
    } finally {
      await new Promise<void>((resolve) => dropper.close(() => resolve()));
    }
  });

  it('answer Slack\'s interface in direct messages with a failure notice', async () => {
    const a = t.client(alice);
    const bot = await hookBot(a, '/slack-dm', { interface_type: 2 });
    await sendDirect(a, [bot.id], 'hello');
    await settle();
    expect(received.filter((r) => r.path === '/slack-dm')).toHaveLength(0);
    const dm = (await messagesIn(a, [{ operator: 'dm', operand: [bot.id] }])).filter((m) => m.sender_id === bot.id);
    expect(dm.map((m) => m.content)).toEqual(["Failure! Slack outgoing webhooks don't support direct messages."]);
  });

  it('do not answer once deactivated', async () => {
    const a = t.client(alice);
    const bot = await hookBot(a, '/gone');
    answers.set('/gone', { status: 200, body: JSON.stringify({ content: 'still here' }) });
    expect((await a.delete(`/bots/${bot.id}`)).status).toBe(200);
    await sendToChannel(a, 'general', 'gone', `@**${bot.name}** anyone?`);
    await settle();
    expect(received.filter((r) => r.path === '/gone')).toHaveLength(0);
  });
});

describe('embedded bots', () => {
  it('answer from their handler: helloworld and encrypt', async () => {
    const a = t.client(alice);
    const hello = await a.post('/bots', { full_name: 'Hello World', short_name: 'helloworld', bot_type: 4, service_name: 'helloworld' });
    const rot = await a.post('/bots', { full_name: 'Rot', short_name: 'rot', bot_type: 4, service_name: 'encrypt' });
    expect(hello.status).toBe(200);
    expect(rot.status).toBe(200);
    await sendToChannel(a, 'general', 'embedded', '@**Hello World** hi');
    await sendDirect(a, [rot.body.user_id], 'Hello, World!');
    await settle();
    const inTopic = (await messagesIn(a, [{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'embedded' }])).filter((m) => m.sender_id === hello.body.user_id);
    expect(inTopic.map((m) => m.content)).toEqual(['beep boop']);
    const dm = (await messagesIn(a, [{ operator: 'dm', operand: [rot.body.user_id] }])).filter((m) => m.sender_id === rot.body.user_id);
    expect(dm.map((m) => m.content)).toEqual(['Encrypted/Decrypted text: Uryyb, Jbeyq!']);
  });
});
