// PATCH /users/me/subscriptions/muted_topics: Zulip's deprecated mute/unmute form, by channel ID
// or name, onto topic visibility policies (user_topic and muted_topics events, register's
// user_topics); the same through GraphQL's updateMutedTopic.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, makeUser } from '../support/factories.ts';
import type { ApiClient } from '../support/client.ts';
import { fails, ok } from '../graphql/helpers.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

let channelId: number;
let secretId: number;
const t = useTestServer();
const { alice, bob } = useTeam(t, ['alice', 'bob']);

async function userTopics(c: ApiClient) {
  const res = await c.post('/register', { fetch_event_types: ['user_topic'] });
  return res.body.user_topics as { stream_id: number; topic_name: string; visibility_policy: number }[];
}

beforeAll(async () => {
  channelId = await makeChannel(t.client(alice), 'noisy');
  secretId = await makeChannel(t.client(alice), 'secret room', { invite_only: true });
});

describe('PATCH /users/me/subscriptions/muted_topics', () => {
  it('mutes a topic by channel ID and unmutes it by name, with events', async () => {
    const c = t.client(bob);
    const modern = (await registerQueue(c, { event_types: ['user_topic', 'muted_topics'] })).queue_id;
    // Zulip sends muted_topics only to queues that did not ask for user_topic.
    const legacy = (await registerQueue(c, { event_types: ['muted_topics'] })).queue_id;
    let res = await c.patch('/users/me/subscriptions/muted_topics', { stream_id: channelId, topic: 'Chatter', op: 'add' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await userTopics(c)).toEqual([expect.objectContaining({ stream_id: channelId, topic_name: 'Chatter', visibility_policy: 1 })]);
    res = await c.patch('/users/me/subscriptions/muted_topics', { stream: 'noisy', topic: 'chatter', op: 'remove' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await userTopics(c)).toEqual([]);
    const events = async (queueId: string) => (await allEvents(c, queueId)).map((e) => [e.type, e.visibility_policy ?? e.muted_topics]);
    expect(await events(modern)).toEqual([['user_topic', 1], ['user_topic', 0]]);
    expect(await events(legacy)).toEqual([['muted_topics', [['noisy', 'Chatter', expect.any(Number)]]], ['muted_topics', []]]);
  });

  it('needs exactly one of stream_id and stream, and a valid op', async () => {
    const c = t.client(bob);
    expect((await c.patch('/users/me/subscriptions/muted_topics', { topic: 'x', op: 'add' })).body)
      .toMatchObject({ code: 'BAD_REQUEST', msg: "Missing 'stream_id' argument" });
    expect((await c.patch('/users/me/subscriptions/muted_topics', { stream_id: channelId, stream: 'noisy', topic: 'x', op: 'add' })).body)
      .toMatchObject({ msg: 'Unsupported parameter combination: stream_id, stream' });
    expect((await c.patch('/users/me/subscriptions/muted_topics', { stream_id: channelId, topic: 'x', op: 'toggle' })).status).toBe(400);
    expect((await c.patch('/users/me/subscriptions/muted_topics', { stream_id: channelId, op: 'add' })).body)
      .toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'topic' });
  });

  it('does not mute in channels the user cannot read, and does not reveal them', async () => {
    const c = t.client(bob);
    expect((await c.patch('/users/me/subscriptions/muted_topics', { stream_id: secretId, topic: 'x', op: 'add' })).body)
      .toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
    expect((await c.patch('/users/me/subscriptions/muted_topics', { stream_id: 987654, topic: 'x', op: 'add' })).body)
      .toMatchObject({ msg: 'Invalid channel ID' });
    expect((await c.patch('/users/me/subscriptions/muted_topics', { stream: 'secret room', topic: 'x', op: 'add' })).body)
      .toMatchObject({ msg: "Invalid channel name 'secret room'" });
    expect((await c.patch('/users/me/subscriptions/muted_topics', { stream: 'secret room', topic: 'x', op: 'remove' })).body)
      .toMatchObject({ msg: 'Topic is not muted' });
    expect((await c.patch('/users/me/subscriptions/muted_topics', { stream: 'nowhere', topic: 'x', op: 'remove' })).body)
      .toMatchObject({ msg: 'Topic is not muted' });
    expect(await userTopics(c)).toEqual([]);
  });

  it('unmutes in a channel the user has since lost access to', async () => {
    const carol = await makeUser(t, { fullName: 'Carol' });
    await t.client(alice).post('/users/me/subscriptions', { subscriptions: [{ name: 'secret room' }], principals: [carol.userId] });
    const c = t.client(carol);
    expect((await c.patch('/users/me/subscriptions/muted_topics', { stream_id: secretId, topic: 'gossip', op: 'add' })).status).toBe(200);
    await t.client(alice).delete('/users/me/subscriptions', { subscriptions: ['secret room'], principals: [carol.userId] });
    expect((await c.patch('/users/me/subscriptions/muted_topics', { stream_id: secretId, topic: 'gossip', op: 'remove' })).status).toBe(200);
    expect(await userTopics(c)).toEqual([]);
  });

  it('through GraphQL: updateMutedTopic', async () => {
    expect((await ok(t, 'mutation { updateMutedTopic(channelName: "noisy", topic: "gql", op: "add") }', {}, alice)).updateMutedTopic).toBe(true);
    expect(await userTopics(t.client(alice))).toEqual([expect.objectContaining({ topic_name: 'gql', visibility_policy: 1 })]);
    const { error } = await fails(t, 'mutation { updateMutedTopic(topic: "gql", op: "add") }', {}, alice);
    expect(error.message).toBe("Missing 'stream_id' argument");
  });
});
