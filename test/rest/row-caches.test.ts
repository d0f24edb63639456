// The rows the send path keeps between requests (resolvers/row-cache.ts): who an API key belongs to,
// a channel and its subscribers. Each request right after a change sees the change, whether it was
// made through the API or straight in the database.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, makeUser, sendToChannel, type MadeUser } from '../support/factories.ts';
import type { ApiClient } from '../support/client.ts';
import { useTestServer } from '../support/fixtures.ts';

const t = useTestServer();

/** Two authenticated requests: the second one is answered from the cache, if anything is. */
async function warm(client: ApiClient): Promise<void> {
  for (let i = 0; i < 2; i++) expect((await client.get('/users/me')).status).toBe(200);
}

/** A message's flags for a user: `historical` when the message never reached them. */
async function flagsOf(client: ApiClient, messageId: number): Promise<string[]> {
  const res = await client.get(`/messages/${messageId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.message.flags;
}

describe('Credentials between requests', () => {
  it('refuse the old API key as soon as a new one is made', async () => {
    const user = await makeUser(t);
    await warm(t.client(user));
    const regenerated = await t.client(user).post('/users/me/api_key/regenerate');
    expect(regenerated.status).toBe(200);
    const old = await t.client(user).get('/users/me');
    expect(old.status).toBe(401);
    expect(old.body).toMatchObject({ code: 'UNAUTHORIZED', msg: 'Invalid API key' });
    expect((await t.client({ ...user, apiKey: regenerated.body.api_key }).get('/users/me')).status).toBe(200);
  });

  it('refuse a user deactivated through the API at their next request', async () => {
    const user = await makeUser(t);
    await warm(t.client(user));
    expect((await t.client(t.owner).delete(`/users/${user.userId}`)).status).toBe(200);
    expect((await t.client(user).get('/users/me')).body).toMatchObject({ code: 'UNAUTHORIZED', msg: 'Account is deactivated' });
  });

  it('carry a new role into the next request', async () => {
    const member = await makeUser(t);
    const target = await makeUser(t);
    await warm(t.client(member));
    expect((await t.client(member).delete(`/users/${target.userId}`)).body).toMatchObject({ msg: 'Must be an organization administrator' });
    expect((await t.client(t.owner).patch(`/users/${member.userId}`, { role: 200 })).status).toBe(200);
    expect((await t.client(member).delete(`/users/${target.userId}`)).status).toBe(200);
  });

  it('follow an e-mail change: the old address stops working with the key, the new one works', async () => {
    const db = t.db;
    // Written directly: can_change_user_emails is a server administrator's grant (Zulip's manage.py), not in the API.
    await db.user.update({ where: { id: t.owner.userId }, data: { canChangeUserEmails: true } });
    try {
      const user = await makeUser(t);
      await warm(t.client(user));
      const email = `moved-${user.userId}@example.com`;
      expect((await t.client(t.owner).patch(`/users/${user.userId}`, { new_email: email })).status).toBe(200);
      expect((await t.client(user).get('/users/me')).body).toMatchObject({ code: 'UNAUTHORIZED', msg: 'Invalid API key' });
      expect((await t.client({ ...user, email }).get('/users/me')).status).toBe(200);
    } finally {
      await db.user.update({ where: { id: t.owner.userId }, data: { canChangeUserEmails: false } });
    }
  });

  it('follow writes made straight in the database', async () => {
    const user = await makeUser(t);
    await warm(t.client(user));
    await t.db.user.update({ where: { id: user.userId }, data: { isActive: false } });
    expect((await t.client(user).get('/users/me')).body).toMatchObject({ msg: 'Account is deactivated' });
  });
});

describe('Channels and their subscribers between messages', () => {
  let sender: MadeUser;
  beforeAll(async () => { sender = await makeUser(t); });

  it('reach a user subscribed after the previous message', async () => {
    await makeChannel(t.client(sender), 'cache-subscribe');
    await sendToChannel(t.client(sender), 'cache-subscribe', 't', 'before');
    const late = await makeUser(t);
    expect((await t.client(late).post('/users/me/subscriptions', { subscriptions: [{ name: 'cache-subscribe' }] })).status).toBe(200);
    const id = await sendToChannel(t.client(sender), 'cache-subscribe', 't', 'after');
    expect(await flagsOf(t.client(late), id)).toEqual([]);
  });

  it('leave out a user who unsubscribed since the previous message', async () => {
    const leaver = await makeUser(t);
    await makeChannel(t.client(sender), 'cache-unsubscribe', { principals: [sender.userId, leaver.userId] });
    const before = await sendToChannel(t.client(sender), 'cache-unsubscribe', 't', 'before');
    expect((await t.client(leaver).delete('/users/me/subscriptions', { subscriptions: ['cache-unsubscribe'] })).status).toBe(200);
    const after = await sendToChannel(t.client(sender), 'cache-unsubscribe', 't', 'after');
    expect(await flagsOf(t.client(leaver), before)).toEqual([]);
    expect(await flagsOf(t.client(leaver), after)).toEqual(['read', 'historical']);
  });

  it('follow a channel renamed since the previous message', async () => {
    const id = await makeChannel(t.client(t.owner), 'cache-rename', { principals: [t.owner.userId, sender.userId] });
    await sendToChannel(t.client(sender), 'cache-rename', 't', 'before');
    expect((await t.client(t.owner).patch(`/streams/${id}`, { new_name: 'cache-renamed' })).status).toBe(200);
    const refused = await t.client(sender).post('/messages', { type: 'channel', to: 'cache-rename', topic: 't', content: 'after' });
    expect(refused.body).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST' });
    expect((await t.client(sender).post('/messages', { type: 'channel', to: 'cache-renamed', topic: 't', content: 'after' })).status).toBe(200);
  });
});
