import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, makeUser } from '../support/factories.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

let vault: number;
const t = useTestServer();
const { alice, bob, guest } = useTeam(t, ['alice', 'bob', 'guest']);

beforeAll(async () => {
  await makeChannel(t.client(alice), 'design', { description: 'All things design' } as never);
  vault = await makeChannel(t.client(alice), 'vault', { invite_only: true });
});

const names = (list: { name: string }[]) => list.map((c) => c.name).sort();

describe('GET /streams', () => {
  it('lists public channels and the caller\'s private ones', async () => {
    const forAlice = await t.client(alice).get('/streams');
    expect(forAlice.status).toBe(200);
    expect(names(forAlice.body.streams)).toEqual(['design', 'general', 'vault']);
    const forBob = await t.client(bob).get('/streams');
    expect(names(forBob.body.streams)).toEqual(['design', 'general']);
  });

  it('shows guests only what they are subscribed to', async () => {
    const res = await t.client(guest).get('/streams');
    expect(names(res.body.streams)).toEqual(['general']);
  });

  it('include_all shows administrators every channel', async () => {
    const res = await t.client(t.owner).get('/streams', { include_all: true });
    expect(names(res.body.streams)).toEqual(['design', 'general', 'vault']);
  });

  it('reports channel fields with group-setting values', async () => {
    const res = await t.client(alice).get('/streams');
    const vaultRecord = res.body.streams.find((s: { name: string }) => s.name === 'vault');
    expect(vaultRecord).toMatchObject({ invite_only: true, is_web_public: false, history_public_to_subscribers: false, creator_id: alice.userId, is_archived: false, topics_policy: 'inherit' });
    expect(vaultRecord.can_administer_channel_group).toEqual({ direct_members: [alice.userId], direct_subgroups: [] });
    expect(typeof vaultRecord.can_remove_subscribers_group).toBe('number');
  });
});

describe('GET /streams/{stream_id}', () => {
  it('returns a channel the caller may see', async () => {
    const res = await t.client(alice).get(`/streams/${vault}`);
    expect(res.body.stream).toMatchObject({ stream_id: vault, name: 'vault', invite_only: true });
  });

  it('treats a private channel of others as nonexistent', async () => {
    const hidden = await t.client(bob).get(`/streams/${vault}`);
    const missing = await t.client(bob).get('/streams/999999');
    expect(hidden.status).toBe(400);
    expect(hidden.body).toEqual(missing.body);
    expect(hidden.body.msg).toBe('Invalid channel ID');
  });
});

describe('GET /get_stream_id', () => {
  it('finds a channel by name, case-insensitively', async () => {
    const res = await t.client(bob).get('/get_stream_id', { stream: 'DESIGN' });
    expect(res.body.stream_id).toBeGreaterThan(0);
  });

  it('reports missing and hidden channels alike, as Zulip\'s access_stream_by_name does', async () => {
    const hidden = await t.client(bob).get('/get_stream_id', { stream: 'vault' });
    expect(hidden.status).toBe(400);
    expect(hidden.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: "Invalid channel name 'vault'" });
    const missing = await t.client(bob).get('/get_stream_id', { stream: 'nope' });
    expect(missing.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: "Invalid channel name 'nope'" });
  });

  it('requires the name', async () => {
    const res = await t.client(bob).get('/get_stream_id');
    expect(res.body.msg).toBe("Missing 'stream' argument");
  });
});

describe('POST /users/me/subscriptions', () => {
  it('creates a channel and subscribes the caller, keyed by user ID', async () => {
    const res = await t.client(bob).post('/users/me/subscriptions', { subscriptions: [{ name: 'bobs-place', description: 'mine' }] });
    expect(res.status).toBe(200);
    expect(res.body.subscribed).toEqual({ [bob.userId]: ['bobs-place'] });
    expect(res.body.already_subscribed).toEqual({});
  });

  it('reports channels the user was already in', async () => {
    const res = await t.client(bob).post('/users/me/subscriptions', { subscriptions: [{ name: 'general' }] });
    expect(res.body.already_subscribed).toEqual({ [bob.userId]: ['general'] });
  });

  it('subscribes other users by ID or email', async () => {
    const res = await t.client(alice).post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }], principals: [bob.email] });
    expect(res.body.subscribed).toEqual({ [bob.userId]: ['design'] });
  });

  it('refuses to add anyone to a private channel for an outsider', async () => {
    const res = await t.client(bob).post('/users/me/subscriptions', { subscriptions: [{ name: 'vault' }] });
    expect(res.status).toBe(400);
    const fine = await t.client(bob).post('/users/me/subscriptions', { subscriptions: [{ name: 'vault' }], authorization_errors_fatal: false });
    expect(fine.status).toBe(200);
    expect(fine.body.unauthorized).toEqual(['vault']);
    expect(fine.body.subscribed).toEqual({});
  });

  it('refuses unknown or deactivated principals with 400', async () => {
    const unknown = await t.client(alice).post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }], principals: [999999] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('BAD_REQUEST');
  });

  it('refuses names that are empty or too long', async () => {
    const empty = await t.client(alice).post('/users/me/subscriptions', { subscriptions: [{ name: '  ' }] });
    expect(empty.status).toBe(400);
    const long = await t.client(alice).post('/users/me/subscriptions', { subscriptions: [{ name: 'x'.repeat(61) }] });
    expect(long.body.msg).toBe('Channel name too long (limit: 60 characters).');
  });

  it('lets guests create nothing', async () => {
    const res = await t.client(guest).post('/users/me/subscriptions', { subscriptions: [{ name: 'guest-channel' }] });
    expect(res.status).toBe(400);
    const check = await t.client(alice).get('/get_stream_id', { stream: 'guest-channel' });
    expect(check.body.msg).toBe("Invalid channel name 'guest-channel'");
  });

  it('changes nothing when one channel in the request fails', async () => {
    const res = await t.client(bob).post('/users/me/subscriptions', { subscriptions: [{ name: 'will-not-exist' }, { name: 'vault' }] });
    expect(res.status).toBe(400);
    const check = await t.client(bob).get('/get_stream_id', { stream: 'will-not-exist' });
    expect(check.body.msg).toBe("Invalid channel name 'will-not-exist'");
  });
});

describe('GET /users/me/subscriptions', () => {
  it('lists the caller\'s channels with personal settings', async () => {
    const res = await t.client(alice).get('/users/me/subscriptions');
    expect(res.status).toBe(200);
    expect(names(res.body.subscriptions)).toEqual(['design', 'general', 'vault']);
    const sub = res.body.subscriptions[0];
    expect(sub).toMatchObject({ is_muted: false, in_home_view: true, pin_to_top: false, desktop_notifications: null });
    expect(sub.color).toMatch(/^#[0-9a-f]{6}$/);
    expect(sub.subscribers).toBeUndefined();
  });

  it('includes subscribers on request', async () => {
    const res = await t.client(alice).get('/users/me/subscriptions', { include_subscribers: 'true' });
    const vaultSub = res.body.subscriptions.find((s: { name: string }) => s.name === 'vault');
    expect(vaultSub.subscribers).toEqual([alice.userId]);
  });
});

describe('the channel record', () => {
  it('is the same in GET /streams/{id}, register and the stream creation event', async () => {
    const owner = t.client(t.owner);
    const watcher = t.client(await makeUser(t));
    const queue = await registerQueue(watcher, { event_types: ['stream'], fetch_event_types: ['stream'] });
    const id = await makeChannel(owner, 'record-parity', { description: 'same **everywhere**' });
    const rest = (await watcher.get(`/streams/${id}`)).body.stream;
    const registered = (await watcher.post('/register', { fetch_event_types: ['stream'] })).body.streams.find((s: any) => s.stream_id === id);
    const events = await allEvents(watcher, queue.queue_id);
    const created = events.find((e: any) => e.type === 'stream' && e.op === 'create').streams[0];
    expect(Object.keys(rest)).toEqual(Object.keys(registered));
    expect(rest).toEqual(registered);
    // A new channel has no weekly traffic yet, in every form.
    expect(created).toEqual(rest);
  });
});
