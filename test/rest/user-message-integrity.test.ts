// UserMessage rows name their message without a per-row foreign key: statement-level triggers keep
// the key's rules (migration 20261201213304_user_message_statement_check). What the API does is
// tested through the API; a row naming a message that does not exist, or an ID changed in place,
// cannot be made through it, so those few statements are written here directly.
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../support/client.ts';
import { makeChannel, sendToChannel } from '../support/factories.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer();
const { alice, bob, carol } = useTeam(t, ['alice', 'bob', 'carol']);

const rowsOf = async (messageId: number) => t.db.userMessage.count({ where: { messageId } });

describe('UserMessage rows follow their message', () => {
  it('a send writes a row per recipient; deleting the message through the API leaves none', async () => {
    await makeChannel(t.client(alice), 'integrity-delete', { principals: JSON.stringify([alice.userId, bob.userId, carol.userId]) });
    const id = await sendToChannel(t.client(alice), 'integrity-delete', 'gone', 'soon deleted');
    expect(await rowsOf(id)).toBe(3);
    expect((await t.ownerClient.delete(`/messages/${id}`)).status).toBe(200);
    expect(await rowsOf(id)).toBe(0);
  });

  it('deleting a topic leaves no rows of any of its messages', async () => {
    const channelId = await makeChannel(t.client(alice), 'integrity-topic', { principals: JSON.stringify([alice.userId, bob.userId]) });
    const ids = [];
    for (const n of [1, 2, 3]) ids.push(await sendToChannel(t.client(alice), 'integrity-topic', 'doomed', `message ${n}`));
    const kept = await sendToChannel(t.client(alice), 'integrity-topic', 'kept', 'stays');
    expect((await t.ownerClient.post(`/streams/${channelId}/delete_topic`, { topic_name: 'doomed' })).body.result).toBe('success');
    expect(await t.db.userMessage.count({ where: { messageId: { in: ids } } })).toBe(0);
    expect(await rowsOf(kept)).toBe(2);
  });

  it('refuses a statement with a row naming a message that does not exist, writing none of its rows', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'integrity', 'exists');
    const missing = id + 1_000_000;
    const before = await t.db.userMessage.count();
    await expect(t.db.$executeRaw`INSERT INTO "UserMessage" ("userId", "messageId") VALUES (${carol.userId}::int, ${id}::int), (${bob.userId}::int, ${missing}::int)
      ON CONFLICT DO NOTHING`).rejects.toThrow(/UserMessage_messageId_fkey/);
    expect(await t.db.userMessage.count()).toBe(before);
  });

  it('carries rows along when a message\'s ID changes, and refuses moving a row to a message that does not exist', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'integrity', 'renumbered');
    const rows = await rowsOf(id);
    expect(rows).toBeGreaterThan(0);
    const next = (await t.db.$queryRaw<{ next: number }[]>`SELECT max(id) + 1000 AS next FROM "Message"`)[0]!.next;
    await t.db.$executeRaw`UPDATE "Message" SET id = ${next}::int WHERE id = ${id}::int`;
    expect(await rowsOf(id)).toBe(0);
    expect(await rowsOf(next)).toBe(rows);
    await expect(t.db.$executeRaw`UPDATE "UserMessage" SET "messageId" = ${next + 1}::int WHERE "messageId" = ${next}::int`).rejects.toThrow(/UserMessage_messageId_fkey/);
    expect(await rowsOf(next)).toBe(rows);
  });

  it('parallel stars of a message their users never received, racing its deletion, leave no row behind', async () => {
    const id = await sendToChannel(t.client(alice), 'general', 'integrity race', 'starred while deleted');
    // Users outside the channel star it from its public history: each star writes a historical row.
    const starrers = await Promise.all([bob, carol].map(async (user) => {
      await t.client(user).delete('/users/me/subscriptions', { subscriptions: JSON.stringify(['general']) });
      return new ApiClient(t.baseUrl, user, undefined, false);
    }));
    const stars = starrers.flatMap((client) => Array.from({ length: 5 }, () => client.post('/messages/flags', { messages: JSON.stringify([id]), op: 'add', flag: 'starred' })));
    const deletion = new ApiClient(t.baseUrl, t.owner, undefined, false).delete(`/messages/${id}`);
    const answers = await Promise.all([...stars, deletion]);
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(500);
    expect((await answers.at(-1)!).status).toBe(200);
    expect(await rowsOf(id)).toBe(0);
  });
});
