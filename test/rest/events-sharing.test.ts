// One message fanned out to many queues is tailored once per shape (kinds.ts Tailoring) and each
// shared copy serialized once (queue.ts eventJson): queues that differ in what the tailor reads must
// still get their own forms, and every answer must be what serializing it alone would give.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel } from '../support/factories.ts';
import type { ApiClient } from '../support/client.ts';
import { Tailoring, type QueueView } from '../../resolvers/events/kinds.ts';
import { EventQueue, eventJson, eventsJson, queuedEvent, type QueueOptions } from '../../resolvers/events/queue.ts';
import type { MessageEvent } from '../../resolvers/messages/events.ts';
import type { MessageView } from '../../resolvers/messages/present.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer({ heartbeatSecs: 1 });
const { alice, bob, carol } = useTeam(t, ['alice', 'bob', 'carol']);

beforeAll(async () => {
  await makeChannel(t.client(alice), 'shapes', { principals: [alice.userId, bob.userId, carol.userId] });
});

const register = async (client: ApiClient, params: Record<string, unknown> = {}) => (await registerQueue(client, { event_types: ['message'], ...params })).queue_id;

const poll = (client: ApiClient, queueId: string) => allEvents(client, queueId, { keepHeartbeats: true });

describe('GET /events: one message to queues of different shapes', () => {
  it('gives each queue its own form: content format, flags, narrow, local echo', async () => {
    const a = t.client(alice);
    const b = t.client(bob);
    const c = t.client(carol);
    // The first queue of each shape tailors the copy the later ones share.
    const aliceEcho = await register(a, { apply_markdown: true });
    const aliceHtml = await register(a, { apply_markdown: true });
    const aliceRaw = await register(a, { apply_markdown: false });
    const bobHtml = await register(b, { apply_markdown: true });
    const bobOtherTopic = await register(b, { apply_markdown: true, narrow: [['channel', 'shapes'], ['topic', 'other']] });
    const bobThisTopic = await register(b, { apply_markdown: true, narrow: [['channel', 'shapes'], ['topic', 'fan']] });
    const carolHtml = await register(c, { apply_markdown: true });
    const carolRaw = await register(c, { apply_markdown: false });

    const sent = await a.post('/messages', { type: 'channel', to: 'shapes', topic: 'fan', content: '@**Bob Builder** look: **bold**', queue_id: aliceEcho, local_id: 'echo-1' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);

    const [echo] = await poll(a, aliceEcho);
    const [html] = await poll(a, aliceHtml);
    const [raw] = await poll(a, aliceRaw);
    expect(echo!.local_message_id).toBe('echo-1');
    expect(html).not.toHaveProperty('local_message_id');
    expect(html!.message).toEqual(echo!.message);
    expect(html!.message.content).toContain('<strong>bold</strong>');
    expect(html!.message.content_type).toBe('text/html');
    expect(raw!.message.content).toBe('@**Bob Builder** look: **bold**');
    expect(raw!.message.content_type).toBe('text/x-markdown');
    expect(raw!.flags).toEqual(html!.flags);

    const [bobEvent] = await poll(b, bobHtml);
    const [carolEvent] = await poll(c, carolHtml);
    const [carolRawEvent] = await poll(c, carolRaw);
    expect(bobEvent!.flags).toContain('mentioned');
    expect(carolEvent!.flags).not.toContain('mentioned');
    expect(bobEvent!.message).toEqual(carolEvent!.message);
    expect(carolRawEvent!.message).toEqual(raw!.message);
    expect(carolRawEvent!.flags).toEqual(carolEvent!.flags);

    expect(await poll(b, bobOtherTopic)).toEqual([]);
    const [narrowed] = await poll(b, bobThisTopic);
    expect(narrowed!.message.id).toBe(sent.body.id);
    expect(narrowed!.flags).toEqual(bobEvent!.flags);
  });
});

describe('Tailoring and serializing once per shape', () => {
  const options = (overrides: Partial<QueueOptions> = {}): QueueOptions => ({
    eventTypes: null, narrow: [], applyMarkdown: true, clientGravatar: false, allPublicStreams: false,
    capabilities: {}, idleTimeoutSecs: 600, ...overrides,
  });
  const view = (queueId: string, userId: number, o: QueueOptions): QueueView => ({ queueId, userId, options: o, emptyTopicDisplayName: 'general chat' });
  const message = {
    id: 7, senderId: 1, senderFullName: 'A', senderEmail: 'a@example.com', senderRealmStr: 'zulip', avatarUrl: null,
    client: 'test', rawContent: 'hi **x**', renderedContent: '<p>hi <strong>x</strong></p>', displayRecipient: 'shapes',
    isMeMessage: false, reactions: [], recipientId: 3, streamId: 2, topic: '', topicLinks: [], submessages: [], timestamp: 1, type: 'stream',
  } as unknown as MessageView;
  const event: MessageEvent = { type: 'message', message, flags_by_user: { 1: ['read'], 2: [], 3: [] }, sender_queue_id: 'q1', local_id: 'l' };

  it('shares one copy between queues of one shape, and only between them', () => {
    const tailoring = new Tailoring(event);
    const [two] = tailoring.forQueue(view('q2', 2, options()));
    const [three] = tailoring.forQueue(view('q3', 3, options()));
    const [raw] = tailoring.forQueue(view('q4', 3, options({ applyMarkdown: false })));
    const [emptyTopic] = tailoring.forQueue(view('q5', 3, options({ capabilities: { empty_topic_name: true } })));
    const [sender] = tailoring.forQueue(view('q6', 1, options()));
    const [echo] = tailoring.forQueue(view('q1', 1, options()));
    expect(three).toBe(two);
    expect(raw).not.toBe(two);
    expect((raw!.message as any).content).toBe('hi **x**');
    expect((emptyTopic!.message as any).subject).toBe('');
    expect((two!.message as any).subject).toBe('general chat');
    expect(sender).not.toBe(two);
    expect(sender!.flags).toEqual(['read']);
    expect(echo!.local_message_id).toBe('l');
    expect(sender).not.toHaveProperty('local_message_id');
    expect(tailoring.forQueue(view('q7', 2, options({ narrow: [['topic', 'elsewhere']] })))).toEqual([]);
  });

  it('answers with exactly what serializing each queued event would give', () => {
    const queue = new EventQueue('q', 1, 2, options());
    const [shared] = new Tailoring(event).forQueue(view('q', 2, options()));
    const pushed = [
      queue.push(shared!), queue.push(shared!), queue.push({ type: 'heartbeat' }),
      // An event with its own `id` field, and one read back from Redis with its JSON.
      queue.push({ type: 'custom', id: 'own', nested: { id: 1 } }),
      queuedEvent({ type: 'stored', value: [1, 'two'] }, 42, '{"type":"stored","value":[1,"two"]}'),
      queuedEvent({ type: 'restored' }, 43),
    ];
    for (const e of pushed) expect(eventJson(e)).toBe(JSON.stringify(e));
    expect(eventsJson(pushed)).toBe(JSON.stringify(pushed));
    expect(eventsJson([])).toBe('[]');
  });
});
