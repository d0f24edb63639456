// Zulip's process_new_human_user: a person's new account (POST /users, GraphQL createUser, an
// invitation's sign-up) has the notice about automatic topic follows seen, and starts
// (add_new_user_history) with the latest messages of the channels it was subscribed to whose
// history it may read, as historical rows, the newest twenty unread. Bots start with nothing, and a
// channel whose history is only for those who received it gives nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Credentials } from '../support/client.ts';
import { makeChannel } from '../support/factories.ts';
import { ok } from '../graphql/helpers.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer();
const { alice } = useTeam(t, ['alice']);
const STRONG = 'tangerine orbit lantern 42';
let townSquare: number;
let clubhouse: number;
let vault: number;
const sent: Record<'town' | 'club' | 'vault', number[]> = { town: [], club: [], vault: [] };
let n = 0;

async function post(channelId: number, topic: string, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await t.client(alice).post('/messages', { type: 'stream', to: String(channelId), topic, content: `message ${i}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ids.push(res.body.id);
  }
  return ids;
}

beforeAll(async () => {
  townSquare = await makeChannel(t.client(alice), 'town square');
  clubhouse = await makeChannel(t.client(alice), 'clubhouse', { invite_only: true, history_public_to_subscribers: true });
  vault = await makeChannel(t.client(alice), 'vault', { invite_only: true, history_public_to_subscribers: false });
  const made = await t.client(t.owner).post('/default_streams', { stream_id: townSquare });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  sent.town = await post(townSquare, 'chatter', 25);
  sent.club = await post(clubhouse, 'members only', 3);
  sent.vault = await post(vault, 'secrets', 3);
});

/** The user's own messages (those they have a row for), oldest first, with their flags. */
async function feed(who: Credentials): Promise<{ id: number; stream_id?: number; flags: string[] }[]> {
  const res = await t.client(who).get('/messages', { anchor: 'newest', num_before: 200, num_after: 0, narrow: JSON.stringify([]) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.messages;
}

const inChannel = (messages: { id: number; stream_id?: number; flags: string[] }[], channelId: number) => messages.filter((m) => m.stream_id === channelId);

async function login(email: string, password: string): Promise<Credentials> {
  const key = await t.client().post('/fetch_api_key', { username: email, password });
  expect(key.status, JSON.stringify(key.body)).toBe(200);
  return { email: key.body.email, apiKey: key.body.api_key, userId: key.body.user_id };
}

describe('POST /users: the new account\'s history', () => {
  it('holds the default channels\' latest messages, historical, the newest twenty unread', async () => {
    const email = `newcomer${++n}@example.com`;
    const res = await t.client(t.owner).post('/users', { email, password: STRONG, full_name: 'New Comer' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const town = inChannel(await feed(await login(email, STRONG)), townSquare);
    expect(town.map((m) => m.id)).toEqual(sent.town);
    for (const m of town) expect(m.flags).toContain('historical');
    expect(town.filter((m) => !m.flags.includes('read')).map((m) => m.id)).toEqual(sent.town.slice(-20));
    const state = await t.client(await login(email, STRONG)).post('/register', { fetch_event_types: ['message', 'update_message_flags'] });
    expect(state.body.unread_msgs.streams.find((s: { stream_id: number }) => s.stream_id === townSquare).unread_message_ids).toEqual(sent.town.slice(-20));
  });

  it('has the notice explaining automatic topic follows seen (Zulip shows it to existing users only)', async () => {
    const email = `noticed${++n}@example.com`;
    expect((await t.client(t.owner).post('/users', { email, password: STRONG, full_name: 'Notice Comer' })).status).toBe(200);
    const state = await t.client(await login(email, STRONG)).post('/register', { fetch_event_types: ['onboarding_steps'] });
    const names = state.body.onboarding_steps.map((s: { name: string }) => s.name);
    expect(names).not.toContain('visibility_policy_banner');
    expect(names).toContain('intro_inbox_view_modal');
  });

  it('through GraphQL createUser too', async () => {
    const email = `graphql${++n}@example.com`;
    await ok(t, 'mutation($e: String!, $p: String!) { createUser(email: $e, password: $p, fullName: "Typed Comer") }', { e: email, p: STRONG }, t.owner);
    expect(inChannel(await feed(await login(email, STRONG)), townSquare).map((m) => m.id)).toEqual(sent.town);
  });

  it('bots start with none', async () => {
    const res = await t.client(alice).post('/bots', { full_name: 'History Bot', short_name: `historybot${++n}`, bot_type: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const bot = { email: (await t.client(alice).get(`/users/${res.body.user_id}`)).body.user.email, apiKey: res.body.api_key, userId: res.body.user_id };
    expect(await t.db.userMessage.count({ where: { userId: bot.userId } })).toBe(0);
  });
});

describe('sign-up from an invitation: the new account\'s history', () => {
  it('includes a private channel with shared history, not one whose history is protected', async () => {
    const email = `invited${++n}@example.com`;
    const invited = await ok(t, 'mutation($e: String!, $s: [Int!]!) { sendInvitations(inviteeEmails: $e, streamIds: $s) }', { e: email, s: [clubhouse, vault] }, alice);
    expect(invited.sendInvitations).toBe(true);
    const invitations = (await ok(t, '{ invitations { email linkUrl } }', {}, alice)).invitations as { email: string; linkUrl: string }[];
    const key = /\/join\/([a-z0-9]+)\//.exec(invitations.find((i) => i.email === email)!.linkUrl)![1];
    await ok(t, 'mutation($k: String!, $p: String!) { signUp(key: $k, fullName: "Invited Comer", password: $p) { userId } }', { k: key, p: STRONG });
    const messages = await feed(await login(email, STRONG));
    expect(inChannel(messages, clubhouse).map((m) => m.id)).toEqual(sent.club);
    expect(inChannel(messages, vault)).toEqual([]);
    expect(messages.filter((m) => !m.flags.includes('read')).map((m) => m.id)).toEqual(sent.club);
    // Not asked to join the default channels (include_realm_default_subscriptions), so none of theirs.
    expect(inChannel(messages, townSquare)).toEqual([]);
  });
});
