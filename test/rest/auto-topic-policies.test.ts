// Zulip's automatic topic visibility policies: a sender follows or unmutes a topic as their
// automatically_follow_topics_policy (1 participation, 2 send, 3 initiation, 4 never) and
// automatically_unmute_topics_in_muted_streams_policy say; a user mentioned by name follows the
// topic while automatically_follow_topics_where_mentioned is on; reactions and widget
// submessages count as participation. POST /messages answers `automatic_new_visibility_policy`,
// GraphQL's postMessage `automaticNewVisibilityPolicy`; every change is a user_topic event.
import { describe, expect, it } from 'vitest';
import type { Credentials } from '../support/client.ts';
import { makeChannel, sendToChannel, updateSettings } from '../support/factories.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { ok } from '../graphql/helpers.ts';
import { useBot, useTeam, useTestServer } from '../support/fixtures.ts';

const MUTED = 1;
const UNMUTED = 2;
const FOLLOWED = 3;
const POLICY = { ON_PARTICIPATION: 1, ON_SEND: 2, ON_INITIATION: 3, NEVER: 4 };

const t = useTestServer();
const { alice, bob, carol } = useTeam(t, ['alice', 'bob', 'carol']);
const bot = useBot(t, () => alice, { fullName: 'Topic Bot' });

let seq = 0;
/** A channel of its own for each case, with alice, bob, carol and the bot subscribed. */
async function channel(options: Record<string, unknown> = {}): Promise<{ id: number; name: string }> {
  const name = `auto ${++seq}`;
  const id = await makeChannel(t.client(alice), name, { principals: [alice.userId, bob.userId, carol.userId, bot.userId], ...options });
  return { id, name };
}

/** Alice, subscribed to every channel here (private ones too), subscribes `who`. */
async function subscribe(channelName: string, who: Credentials): Promise<void> {
  const res = await t.client(alice).post('/users/me/subscriptions', { subscriptions: [{ name: channelName }], principals: [who.userId] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function send(who: Credentials, channelId: number, topic: string, content = 'hello') {
  const res = await t.client(who).post('/messages', { type: 'stream', to: String(channelId), topic, content });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: number; automatic_new_visibility_policy?: number };
}

/** The user's policy for a topic as register reports it (0: none). */
async function policy(who: Credentials, channelId: number, topic: string): Promise<number> {
  const state = await registerQueue<{ user_topics: { stream_id: number; topic_name: string; visibility_policy: number }[] }>(
    t.client(who), { fetch_event_types: ['user_topic'] },
  );
  return state.user_topics.find((u) => u.stream_id === channelId && u.topic_name.toLowerCase() === topic.toLowerCase())?.visibility_policy ?? 0;
}

async function setPolicy(who: Credentials, channelId: number, topic: string, visibility: number): Promise<void> {
  const res = await t.client(who).post('/user_topics', { stream_id: channelId, topic, visibility_policy: visibility });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function muteChannel(who: Credentials, channelId: number, muted = true): Promise<void> {
  const res = await t.client(who).post('/users/me/subscriptions/properties', {
    subscription_data: [{ stream_id: channelId, property: 'is_muted', value: muted }],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function withSettings(who: Credentials, settings: Record<string, unknown>, work: () => Promise<void>): Promise<void> {
  await updateSettings(t, who, settings);
  try {
    await work();
  } finally {
    await updateSettings(t, who, {
      automatically_follow_topics_policy: POLICY.ON_INITIATION,
      automatically_unmute_topics_in_muted_streams_policy: POLICY.ON_SEND,
      automatically_follow_topics_where_mentioned: true,
    });
  }
}

describe('POST /messages: the sender, by default (follow on initiation, unmute on send)', () => {
  it('starting a topic follows it: the response says so, and a user_topic event comes before the message', async () => {
    const { id } = await channel();
    const queue = await registerQueue(t.client(bob), { event_types: ['user_topic', 'message'] });
    const first = await send(bob, id, 'Fresh Start');
    expect(first.automatic_new_visibility_policy).toBe(FOLLOWED);
    expect(await policy(bob, id, 'fresh start')).toBe(FOLLOWED);
    const events = await allEvents(t.client(bob), queue.queue_id);
    expect(events.map((e) => e.type)).toEqual(['user_topic', 'message']);
    expect(events[0]).toMatchObject({ stream_id: id, topic_name: 'Fresh Start', visibility_policy: FOLLOWED, last_updated: expect.any(Number) });
    // Sending again changes nothing, and says nothing.
    const again = await send(bob, id, 'fresh start');
    expect(again).not.toHaveProperty('automatic_new_visibility_policy');
    expect((await allEvents(t.client(bob), queue.queue_id)).filter((e) => e.type === 'user_topic')).toHaveLength(1);
  });

  it('replying to a topic someone else started follows nothing; nobody else is told', async () => {
    const { id } = await channel();
    await send(alice, id, 'theirs');
    const queue = await registerQueue(t.client(alice), { event_types: ['user_topic'] });
    const reply = await send(bob, id, 'THEIRS');
    expect(reply).not.toHaveProperty('automatic_new_visibility_policy');
    expect(await policy(bob, id, 'theirs')).toBe(0);
    expect(await allEvents(t.client(alice), queue.queue_id)).toEqual([]);
  });

  it('a topic whose only earlier messages are in other channels or topics is still new', async () => {
    const a = await channel();
    const b = await channel();
    await send(alice, a.id, 'shared name');
    await send(alice, b.id, 'other topic');
    expect((await send(bob, b.id, 'Shared Name')).automatic_new_visibility_policy).toBe(FOLLOWED);
  });

  it('in a muted channel, sending unmutes the topic, once', async () => {
    const { id } = await channel();
    await send(alice, id, 'quiet');
    await muteChannel(bob, id);
    expect((await send(bob, id, 'quiet')).automatic_new_visibility_policy).toBe(UNMUTED);
    expect(await policy(bob, id, 'quiet')).toBe(UNMUTED);
    expect(await send(bob, id, 'quiet')).not.toHaveProperty('automatic_new_visibility_policy');
    // Starting a topic there follows it (following wins over unmuting).
    expect((await send(bob, id, 'new in muted')).automatic_new_visibility_policy).toBe(FOLLOWED);
  });

  it('an explicitly muted topic stays muted in an unmuted channel; in a muted channel it is unmuted, with muted_topics', async () => {
    const { id, name } = await channel();
    await send(alice, id, 'hushed');
    await setPolicy(bob, id, 'hushed', MUTED);
    expect(await send(bob, id, 'hushed')).not.toHaveProperty('automatic_new_visibility_policy');
    expect(await policy(bob, id, 'hushed')).toBe(MUTED);

    await muteChannel(bob, id);
    const legacy = await registerQueue(t.client(bob), { event_types: ['muted_topics'] });
    expect((await send(bob, id, 'hushed')).automatic_new_visibility_policy).toBe(UNMUTED);
    const [event] = await allEvents(t.client(bob), legacy.queue_id);
    expect(event).toMatchObject({ type: 'muted_topics' });
    expect(event.muted_topics.filter((m: unknown[]) => m[0] === name)).toEqual([]);
  });

  it('a followed topic stays followed, even in a muted channel', async () => {
    const { id } = await channel();
    await send(alice, id, 'kept');
    await setPolicy(bob, id, 'kept', FOLLOWED);
    await muteChannel(bob, id);
    expect(await send(bob, id, 'kept')).not.toHaveProperty('automatic_new_visibility_policy');
    expect(await policy(bob, id, 'kept')).toBe(FOLLOWED);
  });

  it('direct messages and bots change nothing', async () => {
    const { id } = await channel();
    const dm = await t.client(bob).post('/messages', { type: 'direct', to: JSON.stringify([alice.userId]), content: 'hi' });
    expect(dm.body).not.toHaveProperty('automatic_new_visibility_policy');
    const fromBot = await send(bot, id, 'bot topic');
    expect(fromBot).not.toHaveProperty('automatic_new_visibility_policy');
    expect(await t.db.userTopic.count({ where: { userId: bot.userId } })).toBe(0);
  });
});

describe('POST /messages: the sender\'s other policies', () => {
  it('"follow on send" follows any topic sent to, overriding an explicit mute', async () => {
    const { id } = await channel();
    await send(alice, id, 'busy');
    await send(alice, id, 'muted one');
    await setPolicy(carol, id, 'muted one', MUTED);
    await withSettings(carol, { automatically_follow_topics_policy: POLICY.ON_SEND }, async () => {
      expect((await send(carol, id, 'busy')).automatic_new_visibility_policy).toBe(FOLLOWED);
      expect((await send(carol, id, 'muted one')).automatic_new_visibility_policy).toBe(FOLLOWED);
    });
  });

  it('"never" for both follows and unmutes nothing, in a muted channel either', async () => {
    const { id } = await channel();
    await muteChannel(carol, id);
    await withSettings(carol, { automatically_follow_topics_policy: POLICY.NEVER, automatically_unmute_topics_in_muted_streams_policy: POLICY.NEVER }, async () => {
      expect(await send(carol, id, 'untouched')).not.toHaveProperty('automatic_new_visibility_policy');
      expect(await policy(carol, id, 'untouched')).toBe(0);
    });
  });

  it('"unmute on initiation" unmutes only topics the sender starts in a muted channel', async () => {
    const { id } = await channel();
    await send(alice, id, 'older');
    await muteChannel(carol, id);
    await withSettings(carol, { automatically_follow_topics_policy: POLICY.NEVER, automatically_unmute_topics_in_muted_streams_policy: POLICY.ON_INITIATION }, async () => {
      expect(await send(carol, id, 'older')).not.toHaveProperty('automatic_new_visibility_policy');
      expect((await send(carol, id, 'newer')).automatic_new_visibility_policy).toBe(UNMUTED);
    });
  });

  it('with a protected history, a topic is new to a sender who received none of its messages (nothing of it leaks)', async () => {
    const { id, name } = await channel({ invite_only: true, history_public_to_subscribers: false, principals: [alice.userId] });
    await send(alice, id, 'before you came');
    await subscribe(name, carol);
    expect((await send(carol, id, 'before you came')).automatic_new_visibility_policy).toBe(FOLLOWED);
    // With a shared history, the same topic is not carol's to start.
    const shared = await channel({ invite_only: true, history_public_to_subscribers: true, principals: [alice.userId] });
    await send(alice, shared.id, 'before you came');
    await subscribe(shared.name, carol);
    expect(await send(carol, shared.id, 'before you came')).not.toHaveProperty('automatic_new_visibility_policy');
  });
});

describe('POST /messages: mentions (automatically_follow_topics_where_mentioned)', () => {
  it('a personal mention makes a subscribed human follow the topic, with a user_topic event', async () => {
    const { id } = await channel();
    await send(alice, id, 'ping');
    const queue = await registerQueue(t.client(bob), { event_types: ['user_topic'] });
    const res = await send(alice, id, 'ping', '@**Bob Builder** have a look');
    expect(res).not.toHaveProperty('automatic_new_visibility_policy');
    expect(await policy(bob, id, 'ping')).toBe(FOLLOWED);
    expect(await allEvents(t.client(bob), queue.queue_id)).toEqual([
      expect.objectContaining({ type: 'user_topic', stream_id: id, topic_name: 'ping', visibility_policy: FOLLOWED }),
    ]);
    expect(await policy(carol, id, 'ping')).toBe(0);
  });

  it('an unmuted topic becomes followed; a muted or followed one is left alone', async () => {
    const { id } = await channel();
    await send(alice, id, 'mixed');
    await setPolicy(bob, id, 'mixed', UNMUTED);
    await setPolicy(carol, id, 'mixed', MUTED);
    const queue = await registerQueue(t.client(carol), { event_types: ['user_topic'] });
    await send(alice, id, 'mixed', '@**Bob Builder** @**Carol Singer**');
    expect(await policy(bob, id, 'mixed')).toBe(FOLLOWED);
    expect(await policy(carol, id, 'mixed')).toBe(MUTED);
    expect(await allEvents(t.client(carol), queue.queue_id)).toEqual([]);
  });

  it('not with the setting off, nor for silent, group or wildcard mentions, bots, non-subscribers or direct messages', async () => {
    const { id } = await channel({ principals: [alice.userId, bob.userId, bot.userId] });
    await send(alice, id, 'quietly');
    const group = await t.client(alice).post('/user_groups/create', { name: `mentionable ${id}`, description: 'g', members: JSON.stringify([bob.userId]) });
    expect(group.status, JSON.stringify(group.body)).toBe(200);
    await send(alice, id, 'quietly', `@_**Bob Builder** @*mentionable ${id}* @**all** @**Topic Bot** @**Carol Singer**`);
    expect(await policy(bob, id, 'quietly')).toBe(0);
    expect(await policy(carol, id, 'quietly')).toBe(0);
    expect(await t.db.userTopic.count({ where: { userId: bot.userId } })).toBe(0);
    await withSettings(bob, { automatically_follow_topics_where_mentioned: false }, async () => {
      await send(alice, id, 'quietly', '@**Bob Builder**');
      expect(await policy(bob, id, 'quietly')).toBe(0);
    });
    const dm = await t.client(alice).post('/messages', { type: 'direct', to: JSON.stringify([bob.userId]), content: '@**Bob Builder**' });
    expect(dm.status).toBe(200);
    expect(await t.db.userTopic.count({ where: { userId: bob.userId, channelId: id } })).toBe(0);
  });

  it('mentioning oneself follows a topic one did not start', async () => {
    const { id } = await channel();
    await send(alice, id, 'note to self');
    await send(bob, id, 'note to self', 'reminder for @**Bob Builder**');
    expect(await policy(bob, id, 'note to self')).toBe(FOLLOWED);
  });
});

describe('participation: reactions and widget submessages (policy "on participation")', () => {
  it('a reaction follows the topic only under that policy', async () => {
    const { id } = await channel();
    const message = await sendToChannel(t.client(alice), id, 'reacted', 'react to me');
    expect((await t.client(bob).post(`/messages/${message}/reactions`, { emoji_name: 'smile' })).status).toBe(200);
    expect(await policy(bob, id, 'reacted')).toBe(0);
    await withSettings(bob, { automatically_follow_topics_policy: POLICY.ON_PARTICIPATION }, async () => {
      const queue = await registerQueue(t.client(bob), { event_types: ['user_topic'] });
      expect((await t.client(bob).post(`/messages/${message}/reactions`, { emoji_name: 'tada' })).status).toBe(200);
      expect(await policy(bob, id, 'reacted')).toBe(FOLLOWED);
      expect(await allEvents(t.client(bob), queue.queue_id)).toEqual([expect.objectContaining({ type: 'user_topic', visibility_policy: FOLLOWED })]);
    });
  });

  it('a poll vote unmutes a topic of a muted channel under "unmute on participation"', async () => {
    const { id } = await channel();
    const poll = await sendToChannel(t.client(alice), id, 'poll topic', '/poll Lunch?\nPizza\nSoup');
    await muteChannel(carol, id);
    await withSettings(carol, { automatically_follow_topics_policy: POLICY.NEVER, automatically_unmute_topics_in_muted_streams_policy: POLICY.ON_PARTICIPATION }, async () => {
      const vote = await t.client(carol).post('/submessage', { message_id: poll, msg_type: 'widget', content: JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 }) });
      expect(vote.status, JSON.stringify(vote.body)).toBe(200);
      expect(await policy(carol, id, 'poll topic')).toBe(UNMUTED);
    });
  });

  it('a non-subscriber reacting to public history follows nothing', async () => {
    const { id } = await channel({ principals: [alice.userId] });
    const message = await sendToChannel(t.client(alice), id, 'outside', 'public');
    await withSettings(carol, { automatically_follow_topics_policy: POLICY.ON_PARTICIPATION }, async () => {
      expect((await t.client(carol).post(`/messages/${message}/reactions`, { emoji_name: 'smile' })).status).toBe(200);
      expect(await policy(carol, id, 'outside')).toBe(0);
    });
  });
});

describe('races', () => {
  it('parallel first messages to one new topic: every send succeeds and the sender follows it once', async () => {
    const { id } = await channel();
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => t.client(i % 2 ? alice : bob).post('/messages', {
      type: 'stream', to: String(id), topic: 'stampede', content: `message ${i}`,
    })));
    for (const res of results) expect(res.status, JSON.stringify(res.body)).toBe(200);
    for (const who of [alice, bob]) {
      expect(await t.db.userTopic.count({ where: { userId: who.userId, channelId: id } })).toBeLessThanOrEqual(1);
    }
    // At least one of them started it.
    expect(results.some((r) => r.body.automatic_new_visibility_policy === FOLLOWED)).toBe(true);
  });
});

describe('GraphQL postMessage', () => {
  const POST = `mutation($to: JSON!, $topic: String) { postMessage(type: "channel", to: $to, topic: $topic, content: "via graphql") { id automaticNewVisibilityPolicy } }`;

  it('returns the ID and the sender\'s new policy, null when nothing changed', async () => {
    const { id } = await channel();
    const first = (await ok(t, POST, { to: id, topic: 'typed' }, bob)).postMessage as { id: number; automaticNewVisibilityPolicy: number | null };
    expect(first).toEqual({ id: expect.any(Number), automaticNewVisibilityPolicy: FOLLOWED });
    const second = (await ok(t, POST, { to: id, topic: 'typed' }, bob)).postMessage as { automaticNewVisibilityPolicy: number | null };
    expect(second.automaticNewVisibilityPolicy).toBeNull();
  });

  it('the deprecated sendMessage still returns the ID, and applies the same policies', async () => {
    const { id } = await channel();
    const sent = (await ok(t, 'mutation($to: JSON!) { sendMessage(type: "channel", to: $to, topic: "older form", content: "x") }', { to: id }, carol)).sendMessage;
    expect(typeof sent).toBe('number');
    expect(await policy(carol, id, 'older form')).toBe(FOLLOWED);
  });
});
