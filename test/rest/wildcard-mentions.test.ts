// can_mention_many_users_group: wildcard mentions that would notify more than 15 people (a channel
// wildcard in a channel of more than 15 subscribers, @**topic** in a topic of more than 15
// participants) only for the group's members, with Zulip's errors; smaller audiences for anyone.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, makeUser, sendToChannel, type MadeUser } from '../support/factories.ts';
import { graphql } from '../support/client.ts';
import { useTestServer } from '../support/fixtures.ts';

let crowd: MadeUser[];
let member: MadeUser;
let admin: MadeUser;
let sys: Record<string, number>;
const t = useTestServer();
const owner = t.ownerClient;

const STREAM_REFUSAL = { result: 'error', code: 'STREAM_WILDCARD_MENTION_NOT_ALLOWED', msg: 'You do not have permission to use channel wildcard mentions in this channel.' };
const TOPIC_REFUSAL = { result: 'error', code: 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED', msg: 'You do not have permission to use topic wildcard mentions in this topic.' };

function send(user: MadeUser, to: string | number, topic: string, content: string) {
  return t.client(user).post('/messages', { type: 'channel', to, topic, content });
}

async function messageCount(): Promise<number> {
  return t.db.message.count();
}

async function setGroup(groupId: number) {
  const res = await owner.patch('/realm', { can_mention_many_users_group: JSON.stringify({ new: groupId }) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

beforeAll(async () => {
  crowd = [];
  // 16 members and the owner: 17 subscribers, two more than Zulip's threshold of 15.
  for (let i = 0; i < 16; i++) crowd.push(await makeUser(t, { fullName: `Crowd ${i}` }));
  member = crowd[0]!;
  admin = await makeUser(t, { fullName: 'Ada Admin', role: 200 });
  await makeChannel(owner, 'crowd', { principals: JSON.stringify([...crowd.map((u) => u.userId), admin.userId]) });
  await makeChannel(owner, 'small', { principals: JSON.stringify([member.userId, crowd[1]!.userId]) });
  const groups = (await owner.get('/user_groups')).body.user_groups;
  sys = Object.fromEntries(groups.filter((g: any) => g.is_system_group).map((g: any) => [g.name, g.id]));
}, 180_000);

describe('channel wildcard mentions in a channel of more than 15 subscribers', () => {
  it('are refused to members outside can_mention_many_users_group (administrators by default), nothing written', async () => {
    const before = await messageCount();
    for (const wildcard of ['all', 'everyone', 'channel', 'stream']) {
      const res = await send(member, 'crowd', 'plans', `hey @**${wildcard}**`);
      expect(res.body, wildcard).toEqual(STREAM_REFUSAL);
      expect(res.status).toBe(400);
    }
    expect(await messageCount()).toBe(before);
  });

  it('are refused through GraphQL too', async () => {
    const res = await graphql(t.baseUrl, 'mutation { sendMessage(type: "channel", to: "crowd", topic: "plans", content: "@**all** hi") }', {}, member);
    expect(res.body.errors?.[0]).toMatchObject({ message: STREAM_REFUSAL.msg, extensions: { code: STREAM_REFUSAL.code } });
  });

  it('are allowed to the group\'s members', async () => {
    expect((await send(admin, 'crowd', 'plans', 'hey @**all**')).status).toBe(200);
    const res = await graphql(t.baseUrl, 'mutation { sendMessage(type: "channel", to: "crowd", topic: "plans", content: "@**everyone** hi") }', {}, admin);
    expect(res.body.errors).toBeUndefined();
  });

  it('follow the setting: members may once it is role:members', async () => {
    await setGroup(sys['role:members']!);
    try {
      expect((await send(member, 'crowd', 'plans', 'hey @**all**')).status).toBe(200);
    } finally {
      await setGroup(sys['role:administrators']!);
    }
    expect((await send(member, 'crowd', 'plans', 'hey @**all**')).body).toEqual(STREAM_REFUSAL);
  });

  it('silent and quoted wildcards are not mentions and are allowed', async () => {
    expect((await send(member, 'crowd', 'plans', 'as @_**all** knows')).status).toBe(200);
    expect((await send(member, 'crowd', 'plans', '> @**all** look here')).status).toBe(200);
  });

  it('are allowed to anyone in a channel of at most 15 subscribers', async () => {
    expect((await send(member, 'small', 'plans', 'hey @**all**')).status).toBe(200);
  });
});

describe('@**topic** in a topic of more than 15 participants', () => {
  beforeAll(async () => {
    // 16 participants, all in the crowd channel.
    for (const user of crowd) await sendToChannel(t.client(user), 'crowd', 'busy', 'here');
  });

  it('is refused to members outside the group, allowed to its members', async () => {
    const res = await send(member, 'crowd', 'busy', 'ping @**topic**');
    expect(res.body).toEqual(TOPIC_REFUSAL);
    expect(res.status).toBe(400);
    const gql = await graphql(t.baseUrl, 'mutation { sendMessage(type: "channel", to: "crowd", topic: "busy", content: "ping @**topic**") }', {}, member);
    expect(gql.body.errors?.[0]).toMatchObject({ message: TOPIC_REFUSAL.msg, extensions: { code: TOPIC_REFUSAL.code } });
    expect((await send(admin, 'crowd', 'busy', 'ping @**topic**')).status).toBe(200);
  });

  it('is allowed to anyone in a topic of few participants, even in a large channel', async () => {
    expect((await send(member, 'crowd', 'quiet', 'ping @**topic**')).status).toBe(200);
  });
});

describe('PATCH /messages/{message_id} adding a wildcard mention', () => {
  it('is refused as sending it would be, and the content stays', async () => {
    const id = await sendToChannel(t.client(member), 'crowd', 'edits', 'plain');
    const res = await t.client(member).patch(`/messages/${id}`, { content: 'now @**all**' });
    expect(res.body).toEqual(STREAM_REFUSAL);
    const gql = await graphql(t.baseUrl, 'mutation($id: Int!) { updateMessage(messageId: $id, content: "@**everyone**") { __typename } }', { id }, member);
    expect(gql.body.errors?.[0]).toMatchObject({ message: STREAM_REFUSAL.msg, extensions: { code: STREAM_REFUSAL.code } });
    const busy = await sendToChannel(t.client(member), 'crowd', 'busy', 'another');
    expect((await t.client(member).patch(`/messages/${busy}`, { content: '@**topic** now' })).body).toEqual(TOPIC_REFUSAL);
    const message = await t.client(member).get(`/messages/${id}`, { apply_markdown: false });
    expect(message.body.message.content).toBe('plain');
    // In a small channel the same edit is allowed.
    const small = await sendToChannel(t.client(member), 'small', 'edits', 'plain');
    expect((await t.client(member).patch(`/messages/${small}`, { content: 'now @**all**' })).status).toBe(200);
  });
});
