// POST /messages/{message_id}/report: a notice from the notification bot in the moderation request
// channel, in Zulip's format (zerver/lib/message_report.py). The channel is chosen by an
// administrator with PATCH /realm.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, sendDirect, sendToChannel, type MadeUser } from '../support/factories.ts';
import type { ApiClient } from '../support/client.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

let design: number;
let moderation: number;
const t = useTestServer({ scheduledPollMs: 0 });
const { alice, bob, carol, moderator, guest } = useTeam(t, ['alice', 'bob', 'carol', 'moderator', 'guest']);

const mention = (u: MadeUser) => `@_**${u.fullName}|${u.userId}**`;
const report = (client: ApiClient, messageId: number, params: Record<string, unknown>) => client.post(`/messages/${messageId}/report`, params);

beforeAll(async () => {
  design = await makeChannel(t.client(alice), 'design', { principals: [alice.userId, bob.userId, guest.userId] });
  moderation = await makeChannel(t.client(moderator), 'moderation', { invite_only: true });
});

async function setModerationChannel(id: number | null) {
  const res = await t.client(t.owner).patch('/realm', { moderation_request_channel_id: id ?? -1 });
  if (res.status !== 200) throw new Error(`PATCH /realm: ${JSON.stringify(res.body)}`);
}

/** The newest notice in the moderation channel, as the moderator reads it (raw Markdown). */
async function latestNotice() {
  const res = await t.client(moderator).get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, apply_markdown: false, narrow: [{ operator: 'channel', operand: moderation }] });
  return res.body.messages[0];
}

async function messageTime(client: ApiClient, id: number): Promise<string> {
  const got = await client.get(`/messages/${id}`);
  return `<time:${new Date(got.body.message.timestamp * 1000).toISOString().replace('.000Z', '+00:00')}>`;
}

describe('POST /messages/{message_id}/report', () => {
  it('is refused when the organization has no moderation request channel (400 BAD_REQUEST)', async () => {
    await setModerationChannel(null);
    const messageId = await sendToChannel(t.client(bob), design, 'plans', 'hello');
    const res = await report(t.client(alice), messageId, { report_type: 'spam' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Message reporting is not enabled in this organization.' });
    await setModerationChannel(moderation);
  });

  it('posts Zulip\'s notice about a channel message to the moderation channel, topic "<name> moderation"', async () => {
    const messageId = await sendToChannel(t.client(bob), design, 'plans', 'Buy cheap watches');
    const modQueue = (await registerQueue(t.client(moderator), { event_types: ['message'] })).queue_id;
    const aliceQueue = (await registerQueue(t.client(alice), { event_types: ['message'] })).queue_id;
    const res = await report(t.client(alice), messageId, { report_type: 'spam', description: 'Not again' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const notice = await latestNotice();
    expect(notice).toMatchObject({ sender_email: 'notification-bot@zulip.com', type: 'stream', stream_id: moderation, subject: 'Bob Builder moderation' });
    expect(notice.content).toBe(
      `${mention(alice)} reported a message sent by ${mention(bob)} at ${await messageTime(t.client(bob), messageId)}.\n`
      + '```quote\n**Spam**. Not again\n```\n\n'
      + `\`\`\` spoiler Original message at #**design>plans@${messageId}**\nBuy cheap watches\n\`\`\``);
    // The moderators see it arrive; the reporter, who cannot read the channel, does not.
    const modEvents = await allEvents(t.client(moderator), modQueue, { keepHeartbeats: true });
    expect(modEvents.map((e: any) => e.message?.id)).toEqual([notice.id]);
    expect(await allEvents(t.client(alice), aliceQueue, { keepHeartbeats: true })).toEqual([]);
  });

  it('names the participants of direct messages, and links the conversation', async () => {
    const base = t.server.config.externalUrl;
    const pair = [alice.userId, bob.userId].sort((a, b) => a - b).join(',');
    const fromBob = await sendDirect(t.client(bob), [alice.userId], 'rude words');
    expect((await report(t.client(alice), fromBob, { report_type: 'harassment' })).status).toBe(200);
    expect((await latestNotice()).content).toBe(
      `${mention(alice)} reported a message sent by ${mention(bob)} at ${await messageTime(t.client(bob), fromBob)}.\n`
      + '```quote\n**Harassment**. \n```\n\n'
      + `\`\`\` spoiler [Original message](${base}/#narrow/dm/${pair}-dm/near/${fromBob})\nrude words\n\`\`\``);

    // One's own 1:1 message names the other participant.
    const own = await sendDirect(t.client(alice), [bob.userId], 'my own words');
    expect((await report(t.client(alice), own, { report_type: 'norms' })).status).toBe(200);
    expect((await latestNotice()).content.split('\n')[0]).toBe(`${mention(alice)} reported a message sent by ${mention(alice)} to ${mention(bob)} at ${await messageTime(t.client(alice), own)}.`);

    // A group conversation lists everyone but the reported sender.
    const group = await sendDirect(t.client(bob), [alice.userId, carol.userId], 'group noise');
    expect((await report(t.client(carol), group, { report_type: 'inappropriate' })).status).toBe(200);
    const others = [alice, carol].sort((a, b) => a.userId - b.userId).map(mention).join(' and ');
    const lines = (await latestNotice()).content.split('\n');
    expect(lines[0]).toBe(`${mention(carol)} reported a message sent by ${mention(bob)} to ${others} at ${await messageTime(t.client(bob), group)}.`);
    expect(lines[2]).toBe('**Inappropriate content**. ');
  });

  it('takes every key of server_report_message_types, and nothing else', async () => {
    const types = (await t.client(alice).post('/register', { fetch_event_types: ['realm'] })).body.server_report_message_types;
    expect(types.map((x: any) => x.key)).toEqual(['spam', 'harassment', 'inappropriate', 'norms', 'other']);
    const messageId = await sendToChannel(t.client(bob), design, 'plans', 'reportable');
    for (const { key, name } of types) {
      expect((await report(t.client(alice), messageId, { report_type: key, description: 'why' })).status).toBe(200);
      expect((await latestNotice()).content).toContain(`**${name}**. why`);
    }
    const before = await t.db.message.count();
    const bad = await report(t.client(alice), messageId, { report_type: 'boring' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid report_type' });
    const missing = await t.client(alice).post(`/messages/${messageId}/report`, {});
    expect(missing.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'report_type' });
    expect(await t.db.message.count()).toBe(before);
  });

  it('requires a description for `other`, and refuses one over 1000 characters', async () => {
    const messageId = await sendToChannel(t.client(bob), design, 'plans', 'odd');
    const before = await t.db.message.count();
    for (const description of [undefined, '']) {
      const res = await report(t.client(alice), messageId, { report_type: 'other', description });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'An explanation is required.' });
    }
    const long = await report(t.client(alice), messageId, { report_type: 'spam', description: 'x'.repeat(1001) });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'description is too long (limit: 1000 characters)' });
    expect(await t.db.message.count()).toBe(before);
    expect((await report(t.client(alice), messageId, { report_type: 'other', description: 'x'.repeat(1000) })).status).toBe(200);
  });

  it('needs access to the message: any role may report what it can read, nobody what it cannot', async () => {
    const inDesign = await sendToChannel(t.client(bob), design, 'plans', 'seen by members');
    expect((await report(t.client(guest), inDesign, { report_type: 'spam' })).status).toBe(200);
    expect((await report(t.client(moderator), inDesign, { report_type: 'spam' })).status).toBe(200);
    expect((await report(t.client(t.owner), inDesign, { report_type: 'spam' })).status).toBe(200);
    const hidden = await makeChannel(t.client(bob), 'bob private', { invite_only: true });
    const secret = await sendToChannel(t.client(bob), hidden, 'x', 'secret');
    const between = await sendDirect(t.client(bob), [carol.userId], 'between us');
    const before = await t.db.message.count();
    for (const [who, messageId] of [[alice, secret], [alice, between], [guest, between], [alice, 999999]] as const) {
      const res = await report(t.client(who), messageId, { report_type: 'spam' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid message(s)' });
    }
    expect(await t.db.message.count()).toBe(before);
    expect((await t.client().post(`/messages/${inDesign}/report`, { report_type: 'spam' })).status).toBe(401);
  });

  it('posts to the empty topic when the moderation channel allows only that', async () => {
    // Written directly: the API allows empty_topic_only only once every message of the channel is in
    // the empty topic, and earlier reports are in theirs.
    await t.db.channel.update({ where: { id: moderation }, data: { topicsPolicy: 'empty_topic_only' } });
    try {
      const messageId = await sendToChannel(t.client(bob), design, 'plans', 'x');
      expect((await report(t.client(alice), messageId, { report_type: 'spam' })).status).toBe(200);
      const res = await t.client(moderator).get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, allow_empty_topic_name: true, narrow: [{ operator: 'channel', operand: moderation }] });
      expect(res.body.messages[0].subject).toBe('');
    } finally {
      await t.db.channel.update({ where: { id: moderation }, data: { topicsPolicy: 'inherit' } });
    }
  });
});
