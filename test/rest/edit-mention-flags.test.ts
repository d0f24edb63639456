// PATCH /messages/{message_id} with new content: every recipient's mention and alert-word flags
// follow the new content (Zulip's update_user_message_flags), and the update_message event carries
// each user's own flags after the edit (Zulip's do_update_message).
import { describe, expect, it } from 'vitest';
import { makeChannel, sendDirect, sendToChannel } from '../support/factories.ts';
import { openQueue, only } from '../support/events.ts';
import { ok } from '../graphql/helpers.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';
import type { Credentials } from '../support/client.ts';

const t = useTestServer({ scheduledPollMs: 0 });
const { alice, bob, carol } = useTeam(t, ['alice', 'bob', 'carol']);

let counter = 0;
/** A public channel of Alice's that Bob is subscribed to (and Carol when asked), with a fresh topic. */
async function channel(withCarol = false): Promise<{ name: string; topic: string }> {
  counter += 1;
  const name = `edits-${counter}`;
  await makeChannel(t.client(alice), name);
  await makeChannel(t.client(bob), name);
  if (withCarol) await makeChannel(t.client(carol), name);
  return { name, topic: `topic ${counter}` };
}

async function flagsOf(who: Credentials, messageId: number): Promise<string[]> {
  const res = await t.client(who).get(`/messages/${messageId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.message.flags;
}

async function edit(messageId: number, content: string): Promise<void> {
  const res = await t.client(alice).patch(`/messages/${messageId}`, { content });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function unreadMentions(who: Credentials): Promise<number[]> {
  const res = await t.client(who).post('/register', { fetch_event_types: ['message', 'update_message_flags'] });
  return res.body.unread_msgs.mentions;
}

describe('PATCH /messages/{message_id}: mention flags follow the new content', () => {
  it('a mention added by an edit sets `mentioned` and counts as an unread mention; removing it clears both', async () => {
    const { name, topic } = await channel();
    const id = await sendToChannel(t.client(alice), name, topic, 'no mention yet');
    expect(await flagsOf(bob, id)).not.toContain('mentioned');
    await edit(id, `now @**${bob.fullName}**`);
    expect(await flagsOf(bob, id)).toContain('mentioned');
    expect(await flagsOf(alice, id)).not.toContain('mentioned');
    expect(await unreadMentions(bob)).toContain(id);
    await edit(id, 'never mind');
    expect(await flagsOf(bob, id)).not.toContain('mentioned');
    expect(await unreadMentions(bob)).not.toContain(id);
  });

  it('group mentions reach the group\'s members; wildcard mentions set the wildcard flags', async () => {
    const { name, topic } = await channel();
    counter += 1;
    const group = await t.client(alice).post('/user_groups/create', { name: `edit-group-${counter}`, description: 'd', members: JSON.stringify([bob.userId]) });
    expect(group.status, JSON.stringify(group.body)).toBe(200);
    const id = await sendToChannel(t.client(alice), name, topic, 'plain');
    await edit(id, `@*edit-group-${counter}*`);
    expect(await flagsOf(bob, id)).toContain('mentioned');
    await edit(id, '@**all**');
    expect(await flagsOf(bob, id)).toEqual(expect.arrayContaining(['stream_wildcard_mentioned', 'wildcard_mentioned']));
    expect(await flagsOf(bob, id)).not.toContain('mentioned');
  });

  it('alert words: `has_alert_word` follows the content', async () => {
    const { name, topic } = await channel();
    const words = await t.client(bob).post('/users/me/alert_words', { alert_words: JSON.stringify(['pineapple']) });
    expect(words.status).toBe(200);
    const id = await sendToChannel(t.client(alice), name, topic, 'apples');
    expect(await flagsOf(bob, id)).not.toContain('has_alert_word');
    await edit(id, 'a pineapple');
    expect(await flagsOf(bob, id)).toContain('has_alert_word');
  });

  it('direct messages too', async () => {
    const id = await sendDirect(t.client(alice), [bob.userId, carol.userId], 'hi both');
    await edit(id, `hi @**${carol.fullName}**`);
    expect(await flagsOf(carol, id)).toContain('mentioned');
    expect(await flagsOf(bob, id)).not.toContain('mentioned');
  });
});

describe('update_message events carry each user\'s own flags', () => {
  it('the mentioned user\'s event says `mentioned`, another\'s does not; a subscriber reading the history gets ["read"]', async () => {
    const { name, topic } = await channel();
    const id = await sendToChannel(t.client(alice), name, topic, 'before Carol joined');
    // Carol joins after the message: it is history to her (no row of hers), and she is told of its edit.
    await makeChannel(t.client(carol), name);
    const bobQueue = await openQueue(t.client(bob), { event_types: ['update_message'] });
    const aliceQueue = await openQueue(t.client(alice), { event_types: ['update_message'] });
    const carolQueue = await openQueue(t.client(carol), { event_types: ['update_message'] });
    await edit(id, `@**${bob.fullName}** look`);
    expect(only(await bobQueue.events(), 'update_message').flags).toEqual(expect.arrayContaining(['mentioned']));
    expect(only(await aliceQueue.events(), 'update_message').flags).toEqual(['read']);
    expect(only(await carolQueue.events(), 'update_message').flags).toEqual(['read']);
  });

  it('a topic move reports the flags of the message named', async () => {
    const { name, topic } = await channel();
    const id = await sendToChannel(t.client(alice), name, topic, `@**${bob.fullName}** moved soon`);
    const bobQueue = await openQueue(t.client(bob), { event_types: ['update_message'] });
    const res = await t.client(alice).patch(`/messages/${id}`, { topic: `${topic} moved` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(only(await bobQueue.events(), 'update_message').flags).toEqual(['mentioned']);
  });
});

describe('GraphQL updateMessage', () => {
  it('sets the flags as PATCH does', async () => {
    const { name, topic } = await channel();
    const id = await sendToChannel(t.client(alice), name, topic, 'quiet');
    await ok(t, 'mutation($id: Int!, $c: String) { updateMessage(messageId: $id, content: $c) { detachedUploads { id } } }', { id, c: `@**${bob.fullName}**` }, alice);
    expect(await flagsOf(bob, id)).toContain('mentioned');
  });
});
