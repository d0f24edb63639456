// Per-subscription notification overrides with null meaning "inherit the user's default": the
// five notification properties take JSON null, GET /users/me/subscriptions reads it back as null,
// and the update event says null only to clients registered with `notification_settings_null`
// (older clients get the user's current default, as register's subscriptions give them).
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, updateSettings } from '../support/factories.ts';
import type { ApiClient, Credentials } from '../support/client.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

let design: number;
const t = useTestServer();
const { alice, bob } = useTeam(t, ['alice', 'bob']);

const c = (who: Credentials) => t.client(who);
const SUBS = '/users/me/subscriptions';
const PROPS = `${SUBS}/properties`;

/** Each notification property and the user setting it falls back to. */
const DEFAULTS: [string, string][] = [
  ['desktop_notifications', 'enable_stream_desktop_notifications'],
  ['audible_notifications', 'enable_stream_audible_notifications'],
  ['push_notifications', 'enable_stream_push_notifications'],
  ['email_notifications', 'enable_stream_email_notifications'],
  ['wildcard_mentions_notify', 'wildcard_mentions_notify'],
];

const register = async (client: ApiClient, nullCapable: boolean) => (await registerQueue(client, {
  event_types: ['subscription'],
  client_capabilities: nullCapable ? { notification_settings_null: true } : {},
})).queue_id;
const updates = async (client: ApiClient, queueId: string) =>
  (await allEvents(client, queueId)).filter((e) => e.type === 'subscription' && e.op === 'update');
async function designSub(client: ApiClient) {
  const res = await client.get(SUBS);
  expect(res.status).toBe(200);
  return res.body.subscriptions.find((s: { stream_id: number }) => s.stream_id === design);
}
async function row(userId: number) {
  return t.db.subscription.findUniqueOrThrow({ where: { userId_channelId: { userId, channelId: design } } });
}

beforeAll(async () => {
  await makeChannel(c(alice), 'design');
  design = (await t.db.channel.findFirstOrThrow({ where: { name: 'design' } })).id;
  await c(bob).post(SUBS, { subscriptions: [{ name: 'design' }] });
  // Alice's defaults differ from the built-in ones, so the fallback is visibly hers.
  await updateSettings(t, alice, { enable_stream_desktop_notifications: true, enable_stream_audible_notifications: false, enable_stream_push_notifications: true, enable_stream_email_notifications: true, wildcard_mentions_notify: false });
}, 180_000);

describe('POST /users/me/subscriptions/properties: null resets a notification override', () => {
  it('accepts null for all five notification properties and reads it back as null', async () => {
    const set = await c(alice).post(PROPS, { subscription_data: DEFAULTS.map(([property]) => ({ stream_id: design, property, value: false })) });
    expect(set.body).toEqual({ result: 'success', msg: '' });
    expect(await designSub(c(alice))).toMatchObject(Object.fromEntries(DEFAULTS.map(([p]) => [p, false])));

    const res = await c(alice).post(PROPS, { subscription_data: DEFAULTS.map(([property]) => ({ stream_id: design, property, value: null })) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(await designSub(c(alice))).toMatchObject(Object.fromEntries(DEFAULTS.map(([p]) => [p, null])));
    expect(await row(alice.userId)).toMatchObject({ desktopNotifications: null, audibleNotifications: null, pushNotifications: null, emailNotifications: null, wildcardMentionsNotify: null });
  });

  it('sends null to notification_settings_null clients and the user\'s default to the others, to the user alone', async () => {
    await c(alice).post(PROPS, { subscription_data: DEFAULTS.map(([property]) => ({ stream_id: design, property, value: false })) });
    const [modern, legacy, bobs] = await Promise.all([register(c(alice), true), register(c(alice), false), register(c(bob), true)]);
    const res = await c(alice).post(PROPS, { subscription_data: DEFAULTS.map(([property]) => ({ stream_id: design, property, value: null })) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    const forModern = await updates(c(alice), modern);
    expect(forModern).toEqual(DEFAULTS.map(([property]) => ({ id: expect.any(Number), type: 'subscription', op: 'update', stream_id: design, property, value: null })));
    const forLegacy = await updates(c(alice), legacy);
    expect(forLegacy.map((e) => [e.property, e.value])).toEqual([
      ['desktop_notifications', true], ['audible_notifications', false], ['push_notifications', true],
      ['email_notifications', true], ['wildcard_mentions_notify', false],
    ]);
    // The internal fallback never reaches a client.
    expect([...forModern, ...forLegacy].some((e) => 'inherited_value' in e)).toBe(false);
    expect(await updates(c(bob), bobs)).toEqual([]);
  });

  it('a boolean override still reaches both kinds of client unchanged', async () => {
    const [modern, legacy] = await Promise.all([register(c(alice), true), register(c(alice), false)]);
    await c(alice).post(PROPS, { subscription_data: [{ stream_id: design, property: 'audible_notifications', value: true }] });
    for (const q of [modern, legacy]) {
      expect((await updates(c(alice), q)).map((e) => [e.property, e.value])).toEqual([['audible_notifications', true]]);
    }
  });

  it('legacy clients get the default current at the time of the change', async () => {
    await c(alice).post(PROPS, { subscription_data: [{ stream_id: design, property: 'email_notifications', value: true }] });
    await updateSettings(t, alice, { enable_stream_email_notifications: false });
    const legacy = await register(c(alice), false);
    await c(alice).post(PROPS, { subscription_data: [{ stream_id: design, property: 'email_notifications', value: null }] });
    expect((await updates(c(alice), legacy)).map((e) => [e.property, e.value])).toEqual([['email_notifications', false]]);
    // And register without the capability fills the same default in.
    const reg = await c(alice).post('/register', { fetch_event_types: ['subscription'] });
    expect(reg.body.subscriptions.find((s: { stream_id: number }) => s.stream_id === design).email_notifications).toBe(false);
  });

  it('refuses null for the other properties in Zulip\'s words, writing nothing', async () => {
    await c(alice).post(PROPS, { subscription_data: [{ stream_id: design, property: 'desktop_notifications', value: true }] });
    const before = await row(alice.userId);
    const cases: [string, string][] = [
      ['color', 'color is not a string'],
      ['pin_to_top', 'pin_to_top is not a boolean'],
      ['is_muted', 'is_muted is not a boolean'],
      ['in_home_view', 'in_home_view is not a boolean'],
    ];
    const q = await register(c(alice), true);
    for (const [property, msg] of cases) {
      // The valid null before the bad one must not be written either.
      const res = await c(alice).post(PROPS, { subscription_data: [{ stream_id: design, property: 'desktop_notifications', value: null }, { stream_id: design, property, value: null }] });
      expect(res.status, property).toBe(400);
      expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg });
    }
    expect(await row(alice.userId)).toEqual(before);
    expect(await updates(c(alice), q)).toEqual([]);
  });

  it('still refuses non-boolean, non-null notification values', async () => {
    for (const value of ['yes', 1, [], {}]) {
      const res = await c(alice).post(PROPS, { subscription_data: [{ stream_id: design, property: 'push_notifications', value }] });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'push_notifications is not a boolean' });
    }
  });
});

describe('PATCH /users/me/subscriptions/{stream_id}: the one-property form', () => {
  it('takes null for a notification property and refuses it for pin_to_top', async () => {
    await c(alice).patch(`${SUBS}/${design}`, { property: 'wildcard_mentions_notify', value: true });
    expect((await row(alice.userId)).wildcardMentionsNotify).toBe(true);
    const q = await register(c(alice), false);
    const res = await c(alice).patch(`${SUBS}/${design}`, { property: 'wildcard_mentions_notify', value: 'null' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await row(alice.userId)).wildcardMentionsNotify).toBeNull();
    expect((await designSub(c(alice))).wildcard_mentions_notify).toBeNull();
    expect((await updates(c(alice), q)).map((e) => [e.property, e.value])).toEqual([['wildcard_mentions_notify', false]]);

    const bad = await c(alice).patch(`${SUBS}/${design}`, { property: 'pin_to_top', value: 'null' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'pin_to_top is not a boolean' });
  });
});
