// A bot's defaults for where it sends and listens, as Zulip applies them: a channel message sent
// without `to` goes to its default_sending_stream; a queue registered without `narrow` follows its
// default_events_register_stream, and one registered without `all_public_streams` takes
// default_all_public_streams. People have no such defaults.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Credentials } from '../support/client.ts';
import { makeBot, makeChannel, sendToChannel } from '../support/factories.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { fails, ok } from '../graphql/helpers.ts';
import { useBot, useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer();
const { alice } = useTeam(t, ['alice']);
const plainBot = useBot(t, () => alice, { fullName: 'Plain Bot' });
let home: number;
let elsewhere: number;
let unjoined: number;
let sender: Credentials;
let listener: Credentials;
let everywhere: Credentials;

beforeAll(async () => {
  home = await makeChannel(t.client(alice), 'bot home');
  elsewhere = await makeChannel(t.client(alice), 'bot elsewhere');
  unjoined = await makeChannel(t.client(alice), 'bot unjoined');
  sender = await makeBot(t, alice, { fullName: 'Sending Bot', params: { default_sending_stream: 'bot home' } });
  listener = await makeBot(t, alice, { fullName: 'Listening Bot', params: { default_events_register_stream: 'bot home' } });
  everywhere = await makeBot(t, alice, { fullName: 'Everywhere Bot', params: { default_all_public_streams: 'true' } });
  // The listener hears its channel and another one it is subscribed to.
  const subscribed = await t.client(alice).post('/users/me/subscriptions', {
    subscriptions: JSON.stringify([{ name: 'bot home' }, { name: 'bot elsewhere' }]), principals: JSON.stringify([listener.userId]),
  });
  expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(200);
});

describe('POST /messages without `to`', () => {
  it('a bot\'s channel message goes to its default sending channel', async () => {
    const res = await t.client(sender).post('/messages', { type: 'stream', topic: 'defaults', content: 'where do I go?' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const message = await t.client(alice).get(`/messages/${res.body.id}`);
    expect(message.body.message).toMatchObject({ stream_id: home, subject: 'defaults', sender_id: sender.userId });
  });

  it('anyone else gets "Missing channel"; a direct message "Message must have recipients"', async () => {
    for (const who of [alice, plainBot]) {
      const res = await t.client(who).post('/messages', { type: 'stream', topic: 'defaults', content: 'nowhere' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ result: 'error', msg: 'Missing channel' });
    }
    const dm = await t.client(sender).post('/messages', { type: 'direct', content: 'to whom?' });
    expect(dm.body).toMatchObject({ result: 'error', msg: 'Message must have recipients' });
  });

  it('through GraphQL postMessage too', async () => {
    const sent = (await ok(t, 'mutation { postMessage(type: "channel", topic: "typed defaults", content: "hi") { id } }', {}, sender)).postMessage;
    expect((await t.client(alice).get(`/messages/${sent.id}`)).body.message.stream_id).toBe(home);
    const { error } = await fails(t, 'mutation { postMessage(type: "channel", topic: "typed defaults", content: "hi") { id } }', {}, alice);
    expect(error.message).toBe('Missing channel');
  });
});

describe('POST /register without `narrow` or `all_public_streams`', () => {
  it('a bot\'s queue follows its default register channel, unless it asks for a narrow', async () => {
    const defaulted = await registerQueue(t.client(listener), { event_types: ['message'] });
    const asked = await registerQueue(t.client(listener), { event_types: ['message'], narrow: JSON.stringify([['stream', 'bot elsewhere']]) });
    const inHome = await sendToChannel(t.client(alice), home, 'news', 'at home');
    const inElsewhere = await sendToChannel(t.client(alice), elsewhere, 'news', 'elsewhere');
    expect((await allEvents(t.client(listener), defaulted.queue_id)).map((e) => e.message.id)).toEqual([inHome]);
    expect((await allEvents(t.client(listener), asked.queue_id)).map((e) => e.message.id)).toEqual([inElsewhere]);
  });

  it('a bot with default_all_public_streams hears public channels it is not subscribed to, unless it says otherwise', async () => {
    const defaulted = await registerQueue(t.client(everywhere), { event_types: ['message'] });
    const declined = await registerQueue(t.client(everywhere), { event_types: ['message'], all_public_streams: 'false' });
    const id = await sendToChannel(t.client(alice), unjoined, 'broadcast', 'for all public listeners');
    expect((await allEvents(t.client(everywhere), defaulted.queue_id)).map((e) => e.message.id)).toEqual([id]);
    expect(await allEvents(t.client(everywhere), declined.queue_id)).toEqual([]);
  });

  it('people and bots without defaults hear only what they are subscribed to', async () => {
    const queue = await registerQueue(t.client(plainBot), { event_types: ['message'] });
    await sendToChannel(t.client(alice), unjoined, 'broadcast', 'not for the plain bot');
    expect(await allEvents(t.client(plainBot), queue.queue_id)).toEqual([]);
  });
});
