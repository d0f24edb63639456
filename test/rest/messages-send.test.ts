import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, makeUser, sendToChannel, deactivate, updateChannel } from '../support/factories.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

let general: number;
let secret: number;
const t = useTestServer();
const owner = t.ownerClient;
const { alice, bob, guest } = useTeam(t, ['alice', 'bob', 'guest']);

beforeAll(async () => {
  general = (await owner.get('/get_stream_id', { stream: 'general' })).body.stream_id;
  secret = await makeChannel(owner, 'secret', { invite_only: true });
});

describe('POST /messages to a channel', () => {
  it('sends by channel name and by ID, answering the new ID', async () => {
    const byName = await t.client(alice).post('/messages', { type: 'stream', to: 'general', topic: 'greetings', content: 'hello' });
    expect(byName.status).toBe(200);
    expect(byName.body.id).toBeGreaterThan(0);
    const byId = await t.client(alice).post('/messages', { type: 'channel', to: general, topic: 'greetings', content: 'again' });
    expect(byId.status).toBe(200);
    expect(byId.body.id).toBeGreaterThan(byName.body.id);
    const fetched = await t.client(alice).get(`/messages/${byId.body.id}`);
    expect(fetched.body.message).toMatchObject({ subject: 'greetings', display_recipient: 'general', stream_id: general, type: 'stream', sender_id: alice.userId });
    expect(fetched.body.raw_content).toBe('again');
    expect(fetched.body.message.content).toBe('<p>again</p>');
  });

  it('accepts multipart bodies and a JSON-encoded channel list', async () => {
    const res = await t.client(alice).post('/messages', { type: 'stream', to: JSON.stringify(['general']), topic: 'multi', content: 'multipart' }, 'multipart');
    expect(res.status).toBe(200);
  });

  it('accepts the deprecated `subject` for the topic', async () => {
    const res = await t.client(alice).post('/messages', { type: 'stream', to: 'general', subject: 'old-style', content: 'x' });
    expect(res.status).toBe(200);
    const msg = await t.client(alice).get(`/messages/${res.body.id}`);
    expect(msg.body.message.subject).toBe('old-style');
  });

  it('reports a missing channel by name with STREAM_DOES_NOT_EXIST', async () => {
    const res = await t.client(alice).post('/messages', { type: 'stream', to: 'nowhere', topic: 't', content: 'x' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', code: 'STREAM_DOES_NOT_EXIST', stream: 'nowhere' });
  });

  it('reports a missing channel ID the same way a private one looks to outsiders', async () => {
    const missing = await t.client(alice).post('/messages', { type: 'stream', to: 99999, topic: 't', content: 'x' });
    const privateOne = await t.client(alice).post('/messages', { type: 'stream', to: secret, topic: 't', content: 'x' });
    expect(missing.body.code).toBe('STREAM_DOES_NOT_EXIST');
    expect(privateOne.body.code).toBe('STREAM_DOES_NOT_EXIST');
    expect(privateOne.body.msg).toBe(`Channel with ID '${secret}' does not exist`);
  });

  it('refuses a private channel the sender is not in, by name', async () => {
    const res = await t.client(alice).post('/messages', { type: 'stream', to: 'secret', topic: 't', content: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe("Not authorized to send to channel 'secret'");
  });

  it('refuses a guest posting to a public channel they are not subscribed to', async () => {
    await makeChannel(owner, 'lobby');
    const res = await t.client(guest).post('/messages', { type: 'stream', to: 'lobby', topic: 't', content: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe("Not authorized to send to channel 'lobby'");
    const member = await t.client(alice).post('/messages', { type: 'stream', to: 'lobby', topic: 't', content: 'x' });
    expect(member.status).toBe(200);
  });

  it('requires content and type; a channel message without `to` is "Missing channel" (bots have a default)', async () => {
    for (const missing of ['content', 'type']) {
      const params: Record<string, unknown> = { type: 'stream', to: 'general', topic: 't', content: 'x' };
      delete params[missing];
      const res = await t.client(alice).post('/messages', params);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', msg: `Missing '${missing}' argument` });
    }
    const res = await t.client(alice).post('/messages', { type: 'stream', topic: 't', content: 'x' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Missing channel' });
  });

  it('refuses empty content and an unknown type', async () => {
    const empty = await t.client(alice).post('/messages', { type: 'stream', to: 'general', topic: 't', content: '   ' });
    expect(empty.body.msg).toBe('Message must not be empty');
    const badType = await t.client(alice).post('/messages', { type: 'carrier-pigeon', to: 'general', topic: 't', content: 'x' });
    expect(badType.body.msg).toBe('Invalid message type');
  });

  it('matches channel names and emails exactly, not as LIKE patterns', async () => {
    const pattern = await t.client(alice).post('/messages', { type: 'stream', to: 'gen%', topic: 't', content: 'x' });
    expect(pattern.body).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', stream: 'gen%' });
    const underscore = await t.client(alice).post('/messages', { type: 'stream', to: 'gener_l', topic: 't', content: 'x' });
    expect(underscore.body.code).toBe('STREAM_DOES_NOT_EXIST');
    const email = await t.client(alice).post('/messages', { type: 'direct', to: ['b%'], content: 'x' });
    expect(email.body.msg).toBe("Invalid email 'b%'");
  });

  it('refuses malformed JSON in `to`', async () => {
    const res = await t.client(alice).post('/messages', { type: 'private', to: '[1,', content: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('Argument "to" is not valid JSON.');
  });
});

describe('Length limits', () => {
  it('truncates content over 10000 characters, as Zulip does', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'long', 'a'.repeat(10050));
    const msg = await t.client(alice).get(`/messages/${id}`);
    expect(msg.body.raw_content.length).toBeLessThanOrEqual(10000);
    expect(msg.body.raw_content.endsWith('[message truncated]')).toBe(true);
  });

  it('truncates topics over 60 characters with an ellipsis', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 't'.repeat(80), 'x');
    const msg = await t.client(alice).get(`/messages/${id}`);
    expect(msg.body.message.subject).toBe('t'.repeat(57) + '...');
  });
});

describe('Empty topics', () => {
  it('are valid and shown as the display name unless the client allows empty names', async () => {
    const id = await sendToChannel(t.client(alice), 'general', '', 'in the empty topic');
    const shown = await t.client(alice).get(`/messages/${id}`);
    expect(shown.body.message.subject).toBe('general chat');
    const raw = await t.client(alice).get(`/messages/${id}`, { allow_empty_topic_name: true });
    expect(raw.body.message.subject).toBe('');
  });

  it('treat the display name sent as a topic as the empty topic', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'general chat', 'via display name');
    const raw = await t.client(alice).get(`/messages/${id}`, { allow_empty_topic_name: true });
    expect(raw.body.message.subject).toBe('');
  });

  it('are refused where the channel disables them', async () => {
    await updateChannel(t.client(t.owner), general, { topics_policy: 'disable_empty_topic' });
    try {
      const res = await t.client(alice).post('/messages', { type: 'stream', to: 'general', topic: '', content: 'x' });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('BAD_REQUEST');
    } finally {
      await updateChannel(t.client(t.owner), general, { topics_policy: 'inherit' });
    }
  });

  it('are the only topic allowed in an empty_topic_only channel', async () => {
    // A new channel: the policy needs every message of the channel to be in the empty topic already.
    const quiet = await makeChannel(t.client(alice), 'quiet room');
    await updateChannel(t.client(t.owner), quiet, { topics_policy: 'empty_topic_only' });
    const named = await t.client(alice).post('/messages', { type: 'stream', to: 'quiet room', topic: 'named', content: 'x' });
    expect(named.status).toBe(400);
    const empty = await t.client(alice).post('/messages', { type: 'stream', to: 'quiet room', topic: '', content: 'x' });
    expect(empty.status).toBe(200);
  });
});

describe('POST /messages direct', () => {
  it('sends by user IDs and by emails to the same conversation', async () => {
    const a = await t.client(alice).post('/messages', { type: 'direct', to: [bob.userId], content: 'hi bob' });
    const b = await t.client(alice).post('/messages', { type: 'private', to: [bob.email], content: 'hi again' });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const msg = await t.client(bob).get(`/messages/${b.body.id}`);
    expect(msg.body.message.type).toBe('private');
    expect(msg.body.message.display_recipient.map((u: { id: number }) => u.id)).toEqual([alice.userId, bob.userId].sort((x, y) => x - y));
    expect(msg.body.message.flags).not.toContain('read');
  });

  it('is read by the sender and unread for the recipient', async () => {
    const res = await t.client(alice).post('/messages', { type: 'direct', to: [bob.userId], content: 'flags' });
    const mine = await t.client(alice).get(`/messages/${res.body.id}`);
    expect(mine.body.message.flags).toContain('read');
    const theirs = await t.client(bob).get(`/messages/${res.body.id}`);
    expect(theirs.body.message.flags).not.toContain('read');
  });

  it('refuses unknown users and users of another realm', async () => {
    const unknown = await t.client(alice).post('/messages', { type: 'direct', to: [424242], content: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toBe('Invalid user ID 424242');
    const badEmail = await t.client(alice).post('/messages', { type: 'direct', to: ['ghost@example.com'], content: 'x' });
    expect(badEmail.body.msg).toBe("Invalid email 'ghost@example.com'");
  });

  it('refuses deactivated recipients', async () => {
    const gone = await makeUser(t);
    await deactivate(t, gone.userId);
    const res = await t.client(alice).post('/messages', { type: 'direct', to: [gone.userId], content: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('is no longer using Zulip');
  });

  it('is not readable by third parties', async () => {
    const res = await t.client(alice).post('/messages', { type: 'direct', to: [bob.userId], content: 'private' });
    const other = await t.client(guest).get(`/messages/${res.body.id}`);
    expect(other.status).toBe(400);
    expect(other.body.msg).toBe('Invalid message(s)');
  });
});

describe('Message rendering', () => {
  it('renders Markdown, mentions and emoji, and flags the mentioned user', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'render', '**bold** @**Bob Builder** :smile:');
    const msg = await t.client(bob).get(`/messages/${id}`);
    expect(msg.body.message.content).toContain('<strong>bold</strong>');
    expect(msg.body.message.content).toContain(`data-user-id="${bob.userId}"`);
    expect(msg.body.message.content).toContain('emoji-1f604');
    expect(msg.body.message.flags).toContain('mentioned');
    const raw = await t.client(bob).get(`/messages/${id}`, { apply_markdown: false });
    expect(raw.body.message.content).toBe('**bold** @**Bob Builder** :smile:');
    expect(raw.body.message.content_type).toBe('text/x-markdown');
  });

  it('marks /me messages', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'me', '/me waves');
    const msg = await t.client(bob).get(`/messages/${id}`);
    expect(msg.body.message.is_me_message).toBe(true);
  });

  it('escapes raw HTML', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'xss', '<script>alert(1)</script>');
    const msg = await t.client(bob).get(`/messages/${id}`);
    expect(msg.body.message.content).not.toContain('<script>');
  });
});
