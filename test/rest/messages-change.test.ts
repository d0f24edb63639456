import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeBot, makeChannel, makeUser, sendDirect, sendToChannel, updateChannel, updateSettings } from '../support/factories.ts';
import type { Credentials } from '../support/client.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';
import { allEvents, registerQueue, withoutIds } from '../support/events.ts';

const t = useTestServer();
const owner = t.ownerClient;
const { alice, bob, carol } = useTeam(t, ['alice', 'bob', 'carol']);

beforeAll(async () => {
  await makeChannel(t.client(alice), 'vault', { invite_only: true });
});

describe('PATCH /messages/{message_id}', () => {
  it('edits content and records the previous version in edit_history', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'edits', 'first draft');
    const res = await t.client(alice).patch(`/messages/${id}`, { content: 'second **draft**' });
    expect(res.status).toBe(200);
    expect(res.body.detached_uploads).toEqual([]);
    const msg = await t.client(bob).get(`/messages/${id}`);
    expect(msg.body.message.content).toBe('<p>second <strong>draft</strong></p>');
    expect(msg.body.message.last_edit_timestamp).toBeGreaterThan(0);
    expect(msg.body.message.edit_history).toHaveLength(1);
    expect(msg.body.message.edit_history[0]).toMatchObject({ user_id: alice.userId, prev_content: 'first draft', prev_rendered_content: '<p>first draft</p>' });
  });

  it('moves a message to another topic, with prev_topic and last_moved_timestamp', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'old topic', 'moving');
    const res = await t.client(alice).patch(`/messages/${id}`, { topic: 'new topic' });
    expect(res.status).toBe(200);
    const msg = await t.client(bob).get(`/messages/${id}`);
    expect(msg.body.message.subject).toBe('new topic');
    expect(msg.body.message.edit_history[0]).toMatchObject({ prev_topic: 'old topic', topic: 'new topic' });
    expect(msg.body.message.last_moved_timestamp).toBeGreaterThan(0);
    expect(msg.body.message.last_edit_timestamp).toBeUndefined();
  });

  it('moves the whole topic with propagate_mode=change_all', async () => {
    const a = await sendToChannel(t.client(alice), 'general', 'batch', 'one');
    const b = await sendToChannel(t.client(bob), 'general', 'batch', 'two');
    const res = await t.client(alice).patch(`/messages/${a}`, { topic: 'batch moved', propagate_mode: 'change_all' });
    expect(res.status).toBe(200);
    const moved = await t.client(alice).get(`/messages/${b}`);
    expect(moved.body.message.subject).toBe('batch moved');
  });

  it('moving into a private channel takes the messages from those who cannot read it', async () => {
    await makeChannel(owner, 'boardroom', { invite_only: true });
    const boardroom = (await owner.get('/get_stream_id', { stream: 'boardroom' })).body.stream_id;
    const id = await sendToChannel(owner, 'general', 'to be moved', 'soon confidential');
    expect((await t.client(bob).get(`/messages/${id}`)).status).toBe(200);
    const queue = (await t.client(bob).post('/register', { event_types: ['delete_message', 'update_message'], fetch_event_types: ['realm'], client_capabilities: { bulk_message_deletion: true } })).body.queue_id;
    const moved = await owner.patch(`/messages/${id}`, { stream_id: boardroom });
    expect(moved.status).toBe(200);
    await owner.patch(`/messages/${id}`, { content: 'now confidential' });
    expect((await t.client(bob).get(`/messages/${id}`)).body.msg).toBe('Invalid message(s)');
    const search = await t.client(bob).get('/messages', { anchor: 'newest', num_before: 50, num_after: 0 });
    expect(search.body.messages.map((m: { id: number }) => m.id)).not.toContain(id);
    const events = (await t.client(bob).get('/events', { queue_id: queue, dont_block: true })).body.events;
    expect(events.map((e: { type: string }) => e.type)).toEqual(['delete_message']);
    expect(events[0].message_ids).toEqual([id]);
    // The owner, subscribed to the target, still reads it.
    expect((await owner.get(`/messages/${id}`)).body.raw_content).toBe('now confidential');
  });

  it('moving into a channel requires permission to post there', async () => {
    const db = t.db;
    await makeChannel(owner, 'announcements');
    const announcements = (await owner.get('/get_stream_id', { stream: 'announcements' })).body.stream_id;
    const admins = await db.userGroup.findFirstOrThrow({ where: { name: 'role:administrators' } });
    await updateChannel(owner, announcements, { can_send_message_group: { new: admins.id } });
    const id = await sendToChannel(t.client(alice), 'general', 'sneak', 'into announcements');
    const res = await t.client(alice).patch(`/messages/${id}`, { stream_id: announcements });
    expect(res.status).toBe(400);
    expect((await t.client(alice).get(`/messages/${id}`)).body.message.display_recipient).toBe('general');
  });

  it('resolving a topic is not a move: the notification bot says it was resolved, and nothing else', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'question', 'help?');
    await sendToChannel(t.client(carol), 'general', 'question', 'me too');
    await t.client(bob).patch(`/messages/${id}`, { topic: '✔ question', propagate_mode: 'change_all' });
    const msg = await t.client(alice).get(`/messages/${id}`);
    expect(msg.body.message.subject).toBe('✔ question');
    expect(msg.body.message.last_moved_timestamp).toBeUndefined();
    const [, , notice] = await topicMessages(alice, 'general', '✔ question');
    expect(notice).toMatchObject({ sender_email: 'notification-bot@zulip.com', content: expect.stringContaining('has marked this topic as resolved.') });
    // Who has it unread: see "who has a resolve notice unread" below.
    expect(await topicMessages(alice, 'general', 'question')).toEqual([]);
  });

  it('resolving a topic in an edit of the content too sends no notice (Zulip announces only a resolve made alone)', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'quiet fix', 'typo hre');
    const res = await t.client(alice).patch(`/messages/${id}`, { topic: '✔ quiet fix', content: 'typo here', propagate_mode: 'change_one' });
    expect(res.body.result, JSON.stringify(res.body)).toBe('success');
    const messages = await topicMessages(alice, 'general', '✔ quiet fix');
    expect(messages.map((m: { id: number; content: string }) => [m.id, m.content])).toEqual([[id, expect.stringContaining('typo here')]]);
  });

  it('refuses editing someone else\'s content', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'mine', 'mine');
    const res = await t.client(bob).patch(`/messages/${id}`, { content: 'hijacked' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe("You don't have permission to edit this message");
    const msg = await t.client(alice).get(`/messages/${id}`);
    expect(msg.body.raw_content).toBe('mine');
  });

  it('refuses content edits after the time limit', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'late', 'too late');
    // Written directly: only the database can make a message older.
    await t.db.message.update({ where: { id }, data: { dateSent: new Date(Date.now() - 3600_000) } });
    const res = await t.client(alice).patch(`/messages/${id}`, { content: 'changed' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('The time limit for editing this message has passed');
  });

  it('refuses topics on direct messages, and an unknown propagate_mode', async () => {
    const id = await sendDirect(t.client(alice), [bob.userId], 'dm');
    const res = await t.client(alice).patch(`/messages/${id}`, { topic: 'nope' });
    expect(res.body.msg).toBe('Direct messages cannot have topics.');
    const chan = await sendToChannel(t.client(alice), 'general', 'pm', 'x');
    const bad = await t.client(alice).patch(`/messages/${chan}`, { topic: 'y', propagate_mode: 'change_some' });
    expect(bad.body.msg).toBe('Invalid propagate_mode');
  });

  it('refuses messages the user cannot see, and nonexistent ones, alike', async () => {
    const secret = await sendToChannel(t.client(alice), 'vault', 'x', 'hidden');
    const hidden = await t.client(bob).patch(`/messages/${secret}`, { content: 'x' });
    const missing = await t.client(bob).patch('/messages/987654', { content: 'x' });
    expect(hidden.body).toEqual(missing.body);
    expect(hidden.body.msg).toBe('Invalid message(s)');
  });

  it('refuses a request with nothing to change, or only the topic and channel it already has', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'nothing', 'x');
    const res = await t.client(alice).patch(`/messages/${id}`, {});
    expect(res.status).toBe(400);
    const general = (await t.client(alice).get('/get_stream_id', { stream: 'general' })).body.stream_id;
    const same = await t.client(alice).patch(`/messages/${id}`, { topic: 'nothing', stream_id: general });
    expect(same.body).toMatchObject({ result: 'error', msg: 'Nothing to change' });
    expect((await t.client(alice).get(`/messages/${id}`)).body.message.edit_history).toBeUndefined();
  });

  it('accepts parameters in the query string, as some clients send PATCH', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'query', 'before');
    const res = await t.client(alice).patch(`/messages/${id}`, { content: 'after' }, 'query');
    expect(res.status).toBe(200);
    expect((await t.client(alice).get(`/messages/${id}`)).body.raw_content).toBe('after');
  });
});

/** The messages of a topic, oldest first, as `who` sees them. */
async function topicMessages(who: Credentials, channel: string, topic: string) {
  const res = await t.client(who).get('/messages', {
    anchor: 'oldest', num_before: 0, num_after: 100,
    narrow: [{ operator: 'channel', operand: channel }, { operator: 'topic', operand: topic }],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.messages as { id: number; content: string; sender_email: string; flags: string[] }[];
}

describe('PATCH /messages/{message_id}: notices of a move', () => {
  it('by default, a notice in the new topic only, linking the old one', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'source one', 'wandering');
    expect((await t.client(alice).patch(`/messages/${id}`, { topic: 'destination one' })).status).toBe(200);
    const [moved, notice] = await topicMessages(bob, 'general', 'destination one');
    expect(moved!.id).toBe(id);
    expect(notice!.sender_email).toBe('notification-bot@zulip.com');
    expect(notice!.content).toContain('This topic was moved here from');
    expect(notice!.content).toContain('source one');
    expect(notice!.content).toContain(`data-user-id="${alice.userId}"`);
    expect(await topicMessages(bob, 'general', 'source one')).toEqual([]);
  });

  it('with send_notification_to_old_thread, a notice in the old topic naming how many messages left', async () => {
    const first = await sendToChannel(t.client(alice), 'general', 'source two', 'one');
    const second = await sendToChannel(t.client(alice), 'general', 'source two', 'two');
    const third = await sendToChannel(t.client(alice), 'general', 'source two', 'three');
    const res = await t.client(alice).patch(`/messages/${third}`, {
      topic: 'destination two', propagate_mode: 'change_one', send_notification_to_old_thread: 'true', send_notification_to_new_thread: 'true',
    });
    expect(res.status).toBe(200);
    const old = await topicMessages(bob, 'general', 'source two');
    expect(old.map((m) => m.id).slice(0, 2)).toEqual([first, second]);
    expect(old[2]!.content).toContain('A message was moved from this topic to');
    const [, notice] = await topicMessages(bob, 'general', 'destination two');
    // Not the whole topic: the notice links the message itself.
    expect(notice!.content).toMatch(/<a href="[^"]*\/near\/\d+">A message<\/a> was moved here from/);

    const rest = await t.client(alice).patch(`/messages/${first}`, {
      topic: 'destination two', propagate_mode: 'change_later', send_notification_to_old_thread: true, send_notification_to_new_thread: true,
    });
    expect(rest.status).toBe(200);
    const after = await topicMessages(bob, 'general', 'destination two');
    // The two messages, then: 3 moved (the two and the first notice in the old topic).
    expect(after.at(-1)!.content).toContain('3 messages were moved here from');
  });

  it('with both notices off, nothing but the move', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'source three', 'quiet');
    const res = await t.client(alice).patch(`/messages/${id}`, { topic: 'destination three', send_notification_to_old_thread: 'false', send_notification_to_new_thread: 'false' });
    expect(res.status).toBe(200);
    expect((await topicMessages(bob, 'general', 'destination three')).map((m) => m.id)).toEqual([id]);
  });

  it('a move to another channel notices both channels', async () => {
    await makeChannel(owner, 'elsewhere');
    const elsewhere = (await owner.get('/get_stream_id', { stream: 'elsewhere' })).body.stream_id;
    const id = await sendToChannel(owner, 'general', 'travelling', 'to elsewhere');
    const res = await owner.patch(`/messages/${id}`, { stream_id: elsewhere, propagate_mode: 'change_all', send_notification_to_old_thread: 'true' });
    expect(res.status).toBe(200);
    const [, arrived] = await topicMessages(t.owner, 'elsewhere', 'travelling');
    expect(arrived!.content).toContain('This topic was moved here from');
    expect(arrived!.content).toContain('#general');
    const [left] = await topicMessages(t.owner, 'general', 'travelling');
    expect(left!.content).toContain('This topic was moved to');
    expect(left!.content).toContain('#elsewhere');
  });
});

/** `who`'s visibility policies, by "channel ID:topic" (register's user_topics). */
async function topicPolicies(who: Credentials): Promise<Record<string, number>> {
  const state = await registerQueue<{ user_topics: { stream_id: number; topic_name: string; visibility_policy: number }[] }>(
    t.client(who), { fetch_event_types: ['user_topic'], event_types: ['heartbeat'] },
  );
  return Object.fromEntries(state.user_topics.map((u) => [`${u.stream_id}:${u.topic_name}`, u.visibility_policy]));
}

async function setPolicy(who: Credentials, channelId: number, topic: string, policy: number): Promise<void> {
  const res = await t.client(who).post('/user_topics', { stream_id: channelId, topic, visibility_policy: policy });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

// Visibility policies as the API spells them.
const MUTED = 1;
const UNMUTED = 2;
const FOLLOWED = 3;

describe('PATCH /messages/{message_id}: topic visibility policies move with the topic', () => {
  let general: number;
  beforeAll(async () => {
    general = (await owner.get('/get_stream_id', { stream: 'general' })).body.stream_id;
  });

  it('a topic moved as a whole takes every user\'s policy along, announced by user_topic events', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'policies before', 'x');
    await setPolicy(alice, general, 'policies before', FOLLOWED);
    await setPolicy(bob, general, 'policies before', MUTED);
    await setPolicy(carol, general, 'policies before', UNMUTED);
    const queue = await registerQueue(t.client(bob), { event_types: ['user_topic', 'muted_topics'] });
    const legacy = await registerQueue(t.client(bob), { event_types: ['muted_topics'] });
    expect((await owner.patch(`/messages/${id}`, { topic: 'policies after', propagate_mode: 'change_all' })).status).toBe(200);
    for (const [who, policy] of [[alice, FOLLOWED], [bob, MUTED], [carol, UNMUTED]] as const) {
      const policies = await topicPolicies(who);
      expect(policies[`${general}:policies after`], who.email).toBe(policy);
      expect(policies[`${general}:policies before`], who.email).toBeUndefined();
    }
    expect(withoutIds(await allEvents(t.client(bob), queue.queue_id)).map(({ last_updated: _at, ...e }) => e)).toEqual([
      { type: 'user_topic', stream_id: general, topic_name: 'policies before', visibility_policy: 0 },
      { type: 'user_topic', stream_id: general, topic_name: 'policies after', visibility_policy: MUTED },
    ]);
    // Clients without user_topic learn the new list of mutes.
    const [mutes] = await allEvents(t.client(bob), legacy.queue_id);
    expect(mutes.muted_topics.map(([channel, topic]: [string, string]) => `${channel}:${topic}`)).toContain('general:policies after');
    expect(mutes.muted_topics.map(([channel, topic]: [string, string]) => `${channel}:${topic}`)).not.toContain('general:policies before');
  });

  it('moving part of a topic leaves the policies; moving the rest the mover can read takes them along', async () => {
    const first = await sendToChannel(t.client(alice), 'general', 'policies partly', 'goes last');
    const second = await sendToChannel(t.client(alice), 'general', 'policies partly', 'goes first');
    await setPolicy(bob, general, 'policies partly', FOLLOWED);
    expect((await t.client(alice).patch(`/messages/${second}`, { topic: 'policies elsewhere', propagate_mode: 'change_one' })).status).toBe(200);
    expect(await topicPolicies(bob)).toMatchObject({ [`${general}:policies partly`]: FOLLOWED });
    expect((await topicPolicies(bob))[`${general}:policies elsewhere`]).toBeUndefined();
    // change_later from the first message leaves nothing behind: the whole topic moved.
    expect((await t.client(alice).patch(`/messages/${first}`, { topic: 'policies elsewhere', propagate_mode: 'change_later' })).status).toBe(200);
    const policies = await topicPolicies(bob);
    expect(policies[`${general}:policies elsewhere`]).toBe(FOLLOWED);
    expect(policies[`${general}:policies partly`]).toBeUndefined();
  });

  it('into a topic with messages, the more visible of the two policies wins; into one without, the moved topic\'s replaces it', async () => {
    const source = await sendToChannel(t.client(alice), 'general', 'merge source', 'x');
    await sendToChannel(t.client(alice), 'general', 'merge target', 'already here');
    await setPolicy(alice, general, 'merge source', FOLLOWED);
    await setPolicy(alice, general, 'merge target', MUTED);
    await setPolicy(bob, general, 'merge source', MUTED);
    await setPolicy(carol, general, 'merge target', MUTED);
    expect((await owner.patch(`/messages/${source}`, { topic: 'merge target', propagate_mode: 'change_all' })).status).toBe(200);
    // Followed beats muted; no policy beats muted, on either side.
    expect((await topicPolicies(alice))[`${general}:merge target`]).toBe(FOLLOWED);
    expect((await topicPolicies(bob))[`${general}:merge target`]).toBeUndefined();
    expect((await topicPolicies(carol))[`${general}:merge target`]).toBeUndefined();

    // A topic whose messages were deleted keeps its policies until a topic moves in.
    const other = await sendToChannel(t.client(alice), 'general', 'emptied target', 'deleted');
    await setPolicy(carol, general, 'emptied target', MUTED);
    expect((await owner.delete(`/messages/${other}`)).status).toBe(200);
    const mover = await sendToChannel(t.client(alice), 'general', 'into emptied', 'x');
    await setPolicy(bob, general, 'into emptied', MUTED);
    expect((await owner.patch(`/messages/${mover}`, { topic: 'emptied target', propagate_mode: 'change_all' })).status).toBe(200);
    expect((await topicPolicies(bob))[`${general}:emptied target`]).toBe(MUTED);
    expect((await topicPolicies(carol))[`${general}:emptied target`]).toBeUndefined();
  });

  it('a user who cannot read the destination channel loses their policy for the topic', async () => {
    const secret = await makeChannel(owner, 'policy vault', { invite_only: true, principals: [t.owner.userId, alice.userId] });
    const id = await sendToChannel(owner, 'general', 'into the vault', 'x');
    await t.client(bob).post('/messages/flags', { messages: [id], op: 'add', flag: 'read' });
    await setPolicy(alice, general, 'into the vault', FOLLOWED);
    await setPolicy(bob, general, 'into the vault', FOLLOWED);
    expect((await owner.patch(`/messages/${id}`, { stream_id: secret, propagate_mode: 'change_all' })).status).toBe(200);
    expect((await topicPolicies(alice))[`${secret}:into the vault`]).toBe(FOLLOWED);
    const bobs = await topicPolicies(bob);
    expect(bobs[`${secret}:into the vault`]).toBeUndefined();
    expect(bobs[`${general}:into the vault`]).toBeUndefined();
  });

  it('resolving and unresolving a topic keeps its followers following', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'followed question', 'x');
    await setPolicy(carol, general, 'followed question', FOLLOWED);
    expect((await owner.patch(`/messages/${id}`, { topic: '✔ followed question', propagate_mode: 'change_all' })).status).toBe(200);
    expect(await topicPolicies(carol)).toMatchObject({ [`${general}:✔ followed question`]: FOLLOWED });
    expect((await owner.patch(`/messages/${id}`, { topic: 'followed question', propagate_mode: 'change_all' })).status).toBe(200);
    expect(await topicPolicies(carol)).toMatchObject({ [`${general}:followed question`]: FOLLOWED });
  });
});

/**
 * Makes the topic's last message (a resolve notice) two minutes old, past the minute in which
 * resolving again deletes it. Written directly: only the database can make a message older.
 */
async function pastUndoGracePeriod(channel: string, topic: string): Promise<void> {
  const [last] = (await topicMessages(t.owner, channel, topic)).slice(-1);
  await t.db.message.update({ where: { id: last!.id }, data: { dateSent: new Date(Date.now() - 120_000) } });
}

// Zulip's resolved_topic_notice_auto_read_policy (feature level 385) and mark_as_read_for_acting_user,
// as its test_resolved_topic_notice_auto_read_policy and test_move_message_notice_auto_read_for_acting_user.
describe('PATCH /messages/{message_id}: who has a resolve notice unread', () => {
  const people = {} as Record<'always' | 'exceptFollowed' | 'never' | 'mover', Awaited<ReturnType<typeof makeUser>>>;
  let channel: number;
  let robot: Awaited<ReturnType<typeof makeBot>>;
  beforeAll(async () => {
    people.always = await makeUser(t, { fullName: 'Aaron Always' });
    people.exceptFollowed = await makeUser(t, { fullName: 'Cordelia Except-Followed' });
    people.never = await makeUser(t, { fullName: 'Hamlet Never' });
    people.mover = await makeUser(t, { fullName: 'Iago Mover', role: 200 });
    await updateSettings(t, people.always, { resolved_topic_notice_auto_read_policy: 'always' });
    await updateSettings(t, people.never, { resolved_topic_notice_auto_read_policy: 'never' });
    robot = await makeBot(t, people.mover, { fullName: 'Resolve Robot' });
    channel = await makeChannel(t.client(people.mover), 'resolutions', {
      principals: [...Object.values(people).map((p) => p.userId), robot.userId],
    });
  });

  /** Who of `people` (and the bot) has the last message of the topic unread. */
  async function unreadLastMessage(topic: string): Promise<string[]> {
    const [last] = (await topicMessages(people.mover, 'resolutions', topic)).slice(-1);
    expect(last!.sender_email).toBe('notification-bot@zulip.com');
    const unread: string[] = [];
    for (const [name, who] of [...Object.entries(people), ['robot', robot] as const]) {
      const res = await t.client(who).get(`/messages/${last!.id}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      if (!res.body.message.flags.includes('read')) unread.push(name);
    }
    return unread.sort();
  }

  const resolve = async (id: number, topic: string, propagate_mode = 'change_all', by = people.mover) => {
    const res = await t.client(by).patch(`/messages/${id}`, { topic, propagate_mode });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  it('in a followed topic: unread for "never", and for "except_followed" (the default) when following; read for "always"', async () => {
    const id = await sendToChannel(t.client(people.mover), 'resolutions', 'followed', 'done?');
    for (const who of [people.always, people.exceptFollowed, people.never, robot]) await setPolicy(who, channel, 'followed', FOLLOWED);
    await resolve(id, '✔ followed');
    expect(await unreadLastMessage('✔ followed')).toEqual(['exceptFollowed', 'never']);
    // Unresolving: the follows moved with the topic, and count again.
    await pastUndoGracePeriod('resolutions', '✔ followed');
    await resolve(id, 'followed');
    expect((await topicMessages(people.mover, 'resolutions', 'followed')).at(-1)!.content).toContain('has marked this topic as unresolved.');
    expect(await unreadLastMessage('followed')).toEqual(['exceptFollowed', 'never']);
  });

  it('in a topic nobody follows: unread for "never" only', async () => {
    // Started by the bot: a person starting it would follow it (automatically_follow_topics_policy).
    const id = await sendToChannel(t.client(robot), 'resolutions', 'unfollowed', 'done?');
    await resolve(id, '✔ unfollowed');
    expect(await unreadLastMessage('✔ unfollowed')).toEqual(['never']);
    await pastUndoGracePeriod('resolutions', '✔ unfollowed');
    await resolve(id, 'unfollowed');
    expect(await unreadLastMessage('unfollowed')).toEqual(['never']);
  });

  it('a resolve leaving messages behind asks who follows the resolved topic, not the old one', async () => {
    await sendToChannel(t.client(people.mover), 'resolutions', 'partly resolved', 'stays');
    const id = await sendToChannel(t.client(people.mover), 'resolutions', 'partly resolved', 'resolved alone');
    await setPolicy(people.exceptFollowed, channel, 'partly resolved', FOLLOWED);
    await setPolicy(people.always, channel, '✔ partly resolved', FOLLOWED);
    await updateSettings(t, people.always, { resolved_topic_notice_auto_read_policy: 'except_followed' });
    try {
      await resolve(id, '✔ partly resolved', 'change_one');
      expect(await unreadLastMessage('✔ partly resolved')).toEqual(['always', 'never']);
    } finally {
      await updateSettings(t, people.always, { resolved_topic_notice_auto_read_policy: 'always' });
    }
  });

  it('the user who resolved it has it read, whatever their setting', async () => {
    const id = await sendToChannel(t.client(robot), 'resolutions', 'resolved by never', 'done?');
    await resolve(id, '✔ resolved by never', 'change_all', people.never);
    expect(await unreadLastMessage('✔ resolved by never')).toEqual([]);
  });

  it('the notices of a move are read for the mover, unread for the others', async () => {
    const id = await sendToChannel(t.client(people.exceptFollowed), 'resolutions', 'breadcrumbs from', 'moving');
    const res = await t.client(people.never).patch(`/messages/${id}`, {
      topic: 'breadcrumbs to', propagate_mode: 'change_all', send_notification_to_old_thread: 'true', send_notification_to_new_thread: 'true',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await unreadLastMessage('breadcrumbs to')).toEqual(['always', 'exceptFollowed', 'mover', 'robot']);
    expect(await unreadLastMessage('breadcrumbs from')).toEqual(['always', 'exceptFollowed', 'mover', 'robot']);
  });
});

// Zulip's maybe_delete_previous_resolve_topic_notification, within RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS (60).
describe('PATCH /messages/{message_id}: undoing a resolve', () => {
  it('unresolving within a minute deletes the resolve notice, announced as any deletion, and adds no notice', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'hasty', 'fixed?');
    expect((await owner.patch(`/messages/${id}`, { topic: '✔ hasty', propagate_mode: 'change_all' })).status).toBe(200);
    const [, notice] = await topicMessages(bob, 'general', '✔ hasty');
    expect(notice!.content).toContain('has marked this topic as resolved.');
    const queue = await registerQueue(t.client(bob), { event_types: ['delete_message'], client_capabilities: { bulk_message_deletion: true } });
    expect((await owner.patch(`/messages/${id}`, { topic: 'hasty', propagate_mode: 'change_all' })).status).toBe(200);
    expect((await topicMessages(bob, 'general', 'hasty')).map((m) => m.id)).toEqual([id]);
    expect((await t.client(bob).get(`/messages/${notice!.id}`)).body.msg).toBe('Invalid message(s)');
    const general = (await owner.get('/get_stream_id', { stream: 'general' })).body.stream_id;
    expect(withoutIds(await allEvents(t.client(bob), queue.queue_id))).toEqual([
      { type: 'delete_message', message_ids: [notice!.id], message_type: 'stream', stream_id: general, topic: 'hasty' },
    ]);
    // Resolving again as soon deletes nothing: the topic's last message is no resolve notice.
    expect((await owner.patch(`/messages/${id}`, { topic: '✔ hasty', propagate_mode: 'change_all' })).status).toBe(200);
    expect((await topicMessages(bob, 'general', '✔ hasty')).map((m) => m.content)).toEqual([expect.any(String), expect.stringContaining('has marked this topic as resolved.')]);
  });

  it('a minute later, or after another message, the undo gets its own notice; undoing that one at once takes it back', async () => {
    const late = await sendToChannel(t.client(alice), 'general', 'slow', 'fixed?');
    expect((await owner.patch(`/messages/${late}`, { topic: '✔ slow', propagate_mode: 'change_all' })).status).toBe(200);
    await pastUndoGracePeriod('general', '✔ slow');
    expect((await owner.patch(`/messages/${late}`, { topic: 'slow', propagate_mode: 'change_all' })).status).toBe(200);
    expect((await topicMessages(bob, 'general', 'slow')).map((m) => m.content.match(/marked this topic as (\w+)/)?.[1] ?? 'message'))
      .toEqual(['message', 'resolved', 'unresolved']);
    expect((await t.client(bob).patch(`/messages/${late}`, { topic: '✔ slow', propagate_mode: 'change_all' })).status).toBe(200);
    expect((await topicMessages(bob, 'general', '✔ slow')).map((m) => m.content.match(/marked this topic as (\w+)/)?.[1] ?? 'message'))
      .toEqual(['message', 'resolved']);

    const answered = await sendToChannel(t.client(alice), 'general', 'answered', 'fixed?');
    expect((await owner.patch(`/messages/${answered}`, { topic: '✔ answered', propagate_mode: 'change_all' })).status).toBe(200);
    await sendToChannel(t.client(carol), 'general', '✔ answered', 'not for me');
    expect((await owner.patch(`/messages/${answered}`, { topic: 'answered', propagate_mode: 'change_all' })).status).toBe(200);
    expect((await topicMessages(bob, 'general', 'answered')).map((m) => m.content.match(/marked this topic as (\w+)/)?.[1] ?? 'message'))
      .toEqual(['message', 'resolved', 'message', 'unresolved']);
  });
});

describe('PATCH /messages/{message_id}: prev_content_sha256', () => {
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

  it('edits when the content is what the client saw', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'sha', 'as seen');
    const res = await t.client(alice).patch(`/messages/${id}`, { content: 'edited', prev_content_sha256: sha256('as seen') });
    expect(res.status).toBe(200);
    expect((await t.client(alice).get(`/messages/${id}`)).body.raw_content).toBe('edited');
  });

  it('refuses, changing nothing, when the content changed since', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'sha', 'original');
    await t.client(alice).patch(`/messages/${id}`, { content: 'changed elsewhere' });
    const res = await t.client(alice).patch(`/messages/${id}`, { content: 'stale edit', prev_content_sha256: sha256('original') });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: "'prev_content_sha256' value does not match the expected value." });
    const msg = (await t.client(alice).get(`/messages/${id}`)).body;
    expect(msg.raw_content).toBe('changed elsewhere');
    expect(msg.message.edit_history).toHaveLength(1);
  });
});

describe('DELETE /messages/{message_id}', () => {
  it('lets the sender delete their own message', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'delete', 'bye');
    const res = await t.client(alice).delete(`/messages/${id}`);
    expect(res.status).toBe(200);
    expect((await t.client(alice).get(`/messages/${id}`)).body.msg).toBe('Invalid message(s)');
  });

  it('refuses other members', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'delete', 'stay');
    const res = await t.client(bob).delete(`/messages/${id}`);
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe("You don't have permission to delete this message");
  });

  it('lets administrators delete any message', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'delete', 'moderated');
    const res = await owner.delete(`/messages/${id}`);
    expect(res.status).toBe(200);
  });

  it('updates the channel\'s first_message_id', async () => {
    const channelId = await makeChannel(t.client(alice), 'fresh');
    const first = await sendToChannel(t.client(alice), 'fresh', 't', 'first');
    const second = await sendToChannel(t.client(alice), 'fresh', 't', 'second');
    expect((await t.client(alice).get(`/streams/${channelId}`)).body.stream.first_message_id).toBe(first);
    await t.client(alice).delete(`/messages/${first}`);
    expect((await t.client(alice).get(`/streams/${channelId}`)).body.stream.first_message_id).toBe(second);
  });
});

describe('POST /messages/{message_id}/reactions', () => {
  it('adds a reaction by emoji name and lists it on the message', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'react', 'react to me');
    const res = await t.client(bob).post(`/messages/${id}/reactions`, { emoji_name: 'octopus' });
    expect(res.status).toBe(200);
    const msg = await t.client(alice).get(`/messages/${id}`);
    expect(msg.body.message.reactions).toEqual([{ emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user_id: bob.userId }]);
  });

  it('refuses the same reaction twice', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'react', 'twice');
    await t.client(bob).post(`/messages/${id}/reactions`, { emoji_name: 'tada' });
    const again = await t.client(bob).post(`/messages/${id}/reactions`, { emoji_name: 'tada' });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('REACTION_ALREADY_EXISTS');
  });

  it('refuses unknown emoji and a missing name', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'react', 'bad emoji');
    const unknown = await t.client(bob).post(`/messages/${id}/reactions`, { emoji_name: 'not_an_emoji_at_all' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toBe("Emoji 'not_an_emoji_at_all' does not exist");
    const missing = await t.client(bob).post(`/messages/${id}/reactions`, {});
    expect(missing.body.code).toBe('REQUEST_VARIABLE_MISSING');
  });

  it('refuses messages the user cannot see', async () => {
    const secret = await sendToChannel(t.client(alice), 'vault', 'x', 'hidden');
    const res = await t.client(bob).post(`/messages/${secret}/reactions`, { emoji_name: 'smile' });
    expect(res.body.msg).toBe('Invalid message(s)');
  });

  it('lets a non-subscriber react to public history', async () => {
    await makeChannel(t.client(alice), 'public-talk');
    const id = await sendToChannel(t.client(alice), 'public-talk', 'x', 'public');
    const res = await t.client(carol).post(`/messages/${id}/reactions`, { emoji_name: 'smile' });
    expect(res.status).toBe(200);
  });
});

describe('DELETE /messages/{message_id}/reactions', () => {
  it('removes a reaction by name or by code', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'unreact', 'x');
    await t.client(bob).post(`/messages/${id}/reactions`, { emoji_name: 'heart' });
    await t.client(bob).post(`/messages/${id}/reactions`, { emoji_name: 'smile' });
    expect((await t.client(bob).delete(`/messages/${id}/reactions`, { emoji_name: 'heart' })).status).toBe(200);
    expect((await t.client(bob).delete(`/messages/${id}/reactions`, { emoji_code: '1f604', reaction_type: 'unicode_emoji' })).status).toBe(200);
    expect((await t.client(alice).get(`/messages/${id}`)).body.message.reactions).toEqual([]);
  });

  it('reports a reaction that does not exist', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'unreact', 'none');
    const res = await t.client(bob).delete(`/messages/${id}/reactions`, { emoji_name: 'heart' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('REACTION_DOES_NOT_EXIST');
  });
});

describe('POST /messages/flags', () => {
  it('marks messages read and unread', async () => {
    const id = await sendDirect(t.client(alice), [bob.userId], 'read me');
    const res = await t.client(bob).post('/messages/flags', { messages: [id], op: 'add', flag: 'read' });
    expect(res.status).toBe(200);
    expect(res.body.messages).toEqual([id]);
    expect((await t.client(bob).get(`/messages/${id}`)).body.message.flags).toContain('read');
    await t.client(bob).post('/messages/flags', { messages: [id], op: 'remove', flag: 'read' });
    expect((await t.client(bob).get(`/messages/${id}`)).body.message.flags).not.toContain('read');
  });

  it('stars public history the user never received', async () => {
    await makeChannel(t.client(alice), 'starry');
    const id = await sendToChannel(t.client(alice), 'starry', 'x', 'star me');
    const res = await t.client(carol).post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' });
    expect(res.status).toBe(200);
    const msg = await t.client(carol).get(`/messages/${id}`);
    expect(msg.body.message.flags).toEqual(expect.arrayContaining(['starred', 'historical', 'read']));
  });

  it('refuses unknown and non-editable flags, and bad operations', async () => {
    const id = await sendDirect(t.client(alice), [bob.userId], 'flags');
    expect((await t.client(bob).post('/messages/flags', { messages: [id], op: 'add', flag: 'shiny' })).body.msg).toBe("Invalid flag: 'shiny'");
    expect((await t.client(bob).post('/messages/flags', { messages: [id], op: 'add', flag: 'mentioned' })).body.msg).toBe("Flag not editable: 'mentioned'");
    expect((await t.client(bob).post('/messages/flags', { messages: [id], op: 'toggle', flag: 'read' })).status).toBe(400);
    expect((await t.client(bob).post('/messages/flags', { messages: 'not a list', op: 'add', flag: 'read' })).status).toBe(400);
  });

  it('refuses messages the user cannot access, changing nothing', async () => {
    const mine = await sendDirect(t.client(alice), [bob.userId], 'partial');
    const secret = await sendToChannel(t.client(alice), 'vault', 'x', 'hidden');
    const res = await t.client(bob).post('/messages/flags', { messages: [mine, secret], op: 'add', flag: 'starred' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('Invalid message(s)');
    // One transaction: the accessible message was not starred either.
    expect((await t.client(bob).get(`/messages/${mine}`)).body.message.flags).not.toContain('starred');
  });
});
