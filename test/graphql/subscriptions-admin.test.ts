// Subscription management through /graphql: the subscribe mutation's creation options, unsubscribe,
// personal subscription settings and subscriber lists, with the same rules as the REST endpoints,
// and nothing of one organization reachable from another (Host header picks the realm).
import { beforeAll, describe, expect, it } from 'vitest';
import { makeOtherRealmOwner } from '../support/factories.ts';
import type { Credentials } from '../support/client.ts';
import { systemGroupIds } from '../../resolvers/groups/system.ts';
import { fails, ok } from './helpers.ts';
import { useBot, useTeam, useTestServer } from '../support/fixtures.ts';

const ROOT = 'localhost';
const OTHER = 'other.localhost';

let boss: Credentials;
let groups: Record<string, number>;
let vault: number;
let design: number;
const t = useTestServer();
const { admin, moderator, alice, bob, guest } = useTeam(t, ['admin', 'moderator', 'alice', 'bob', 'guest']);
const bot = useBot(t, alice, { fullName: 'Alice Bot' });

const SUBSCRIBE = `mutation($subs: [SubscriptionSpec!]!, $principals: JSON, $inviteOnly: Boolean, $fatal: Boolean, $retention: JSON, $topicsPolicy: String, $send: JSON, $add: JSON, $remove: JSON, $isWebPublic: Boolean) {
  subscribe(subscriptions: $subs, principals: $principals, inviteOnly: $inviteOnly, authorizationErrorsFatal: $fatal, messageRetentionDays: $retention,
    topicsPolicy: $topicsPolicy, canSendMessageGroup: $send, canAddSubscribersGroup: $add, canRemoveSubscribersGroup: $remove, isWebPublic: $isWebPublic) {
    subscribed alreadySubscribed unauthorized } }`;
const UNSUBSCRIBE = `mutation($subs: [String!]!, $principals: JSON) { unsubscribe(subscriptions: $subs, principals: $principals) { removed notRemoved } }`;
const PROPS = `mutation($data: JSON!) { updateSubscriptionProperties(subscriptionData: $data) }`;
const MEMBERS = `query($id: Int!) { channelSubscribers(channelId: $id) }`;
const IS_SUBSCRIBED = `query($user: Int, $id: Int!) { isSubscribed(userId: $user, channelId: $id) }`;
const CHANNEL_ID = `query($name: String!) { channelIdByName(name: $name) }`;

const idOf = async (name: string) => (await ok(t, CHANNEL_ID, { name }, t.owner, ROOT)).channelIdByName as number;

beforeAll(async () => {
  groups = await systemGroupIds(t.db as never, t.realmId);
  await ok(t, SUBSCRIBE, { subs: [{ name: 'vault' }], inviteOnly: true }, alice, ROOT);
  await ok(t, SUBSCRIBE, { subs: [{ name: 'design' }], principals: [alice.userId, bob.userId] }, alice, ROOT);
  vault = await idOf('vault');
  design = await idOf('design');
  boss = await makeOtherRealmOwner(t, 'other');
}, 180_000);

describe('subscribe: creation options', () => {
  it('creates a channel with retention, topics policy and group settings (owner)', async () => {
    const data = await ok(t, SUBSCRIBE, {
      subs: [{ name: 'configured', description: '*hi*' }], retention: 'unlimited', topicsPolicy: 'disable_empty_topic',
      send: groups['role:administrators'], add: { direct_members: [bob.userId], direct_subgroups: [] },
    }, t.owner, ROOT);
    expect(data.subscribe.subscribed).toEqual({ [t.owner.userId]: ['configured'] });
    const id = await idOf('configured');
    const ch = await ok(t, `query($id: Int!) { channel(channelId: $id) { messageRetentionDays topicsPolicy canSendMessageGroup canAddSubscribersGroup isAnnouncementOnly streamPostPolicy renderedDescription } }`, { id }, t.owner, ROOT);
    expect(ch.channel).toMatchObject({
      messageRetentionDays: -1, topicsPolicy: 'disable_empty_topic', canSendMessageGroup: groups['role:administrators'],
      canAddSubscribersGroup: { direct_members: [bob.userId], direct_subgroups: [] }, isAnnouncementOnly: true, streamPostPolicy: 2,
    });
    expect(ch.channel.renderedDescription).toContain('<em>hi</em>');
  });

  it('refuses retention for non-owners, bad topics policies, web-public without spectator access', async () => {
    const retention = await fails(t, SUBSCRIBE, { subs: [{ name: 'nope1' }], retention: 10 }, admin, ROOT);
    expect(retention.error.message).toBe('Must be an organization owner');
    expect(retention.error.extensions?.code).toBe('UNAUTHORIZED_PRINCIPAL');
    const policy = await fails(t, SUBSCRIBE, { subs: [{ name: 'nope1' }], topicsPolicy: 'whatever' }, alice, ROOT);
    expect(policy.error.message).toBe('Invalid topics_policy');
    const web = await fails(t, SUBSCRIBE, { subs: [{ name: 'nope1' }], isWebPublic: true }, t.owner, ROOT);
    expect(web.error.message).toBe('Insufficient permission');
    const group = await fails(t, SUBSCRIBE, { subs: [{ name: 'nope1' }], send: 123456 }, alice, ROOT);
    expect(group.error.message).toBe('Invalid user group');
    const guestTry = await fails(t, SUBSCRIBE, { subs: [{ name: 'nope1' }] }, guest, ROOT);
    expect(guestTry.error.message).toBe('Insufficient permission');
    expect(await t.db.channel.findFirst({ where: { name: 'nope1' } })).toBeNull();
  });
});

describe('subscribe: the permission matrix for an existing private channel', () => {
  it('only subscribers (and the channel\'s can_add_subscribers_group) add others', async () => {
    for (const who of [t.owner, admin, moderator, bob, guest, bot]) {
      const res = await fails(t, SUBSCRIBE, { subs: [{ name: 'vault' }], principals: [bob.userId] }, who, ROOT);
      expect(res.error.message).toBe('Unable to access channel (vault).');
      const soft = await ok(t, SUBSCRIBE, { subs: [{ name: 'vault' }], principals: [bob.userId], fatal: false }, who, ROOT);
      expect(soft.subscribe).toEqual({ subscribed: {}, alreadySubscribed: {}, unauthorized: ['vault'] });
    }
    expect((await ok(t, SUBSCRIBE, { subs: [{ name: 'vault' }], principals: [bob.userId] }, alice, ROOT)).subscribe.subscribed).toEqual({ [bob.userId]: ['vault'] });
  });

  it('principals from another organization are unknown', async () => {
    const res = await fails(t, SUBSCRIBE, { subs: [{ name: 'design' }], principals: [boss.userId] }, alice, ROOT);
    expect(res.error.message).toBe('No such user');
    expect(res.error.extensions?.code).toBe('BAD_REQUEST');
  });
});

describe('unsubscribe', () => {
  it('matrix for removing someone else from a public channel: administrators and owners yes, others no', async () => {
    for (const who of [moderator, bob, bot]) {
      const res = await fails(t, UNSUBSCRIBE, { subs: ['design'], principals: [alice.userId] }, who, ROOT);
      expect(res.error.message, String(who.userId)).toBe('Insufficient permission');
    }
    // A guest outside the public channel does not even see it.
    expect((await fails(t, UNSUBSCRIBE, { subs: ['design'], principals: [alice.userId] }, guest, ROOT)).error.message).toBe("Channel 'design' does not exist");
    expect((await ok(t, UNSUBSCRIBE, { subs: ['design'], principals: [alice.userId] }, admin, ROOT)).unsubscribe).toEqual({ removed: ['design'], notRemoved: [] });
    await ok(t, SUBSCRIBE, { subs: [{ name: 'design' }], principals: [alice.userId] }, bob, ROOT);
    expect((await ok(t, UNSUBSCRIBE, { subs: ['design'], principals: [alice.userId] }, t.owner, ROOT)).unsubscribe.removed).toEqual(['design']);
    await ok(t, SUBSCRIBE, { subs: [{ name: 'design' }] }, alice, ROOT);
  });

  it('own bots may be removed by their owner', async () => {
    await ok(t, SUBSCRIBE, { subs: [{ name: 'design' }] }, bot, ROOT);
    expect((await fails(t, UNSUBSCRIBE, { subs: ['design'], principals: [bot.userId] }, bob, ROOT)).error.message).toBe('Insufficient permission');
    expect((await ok(t, UNSUBSCRIBE, { subs: ['design'], principals: [bot.userId] }, alice, ROOT)).unsubscribe.removed).toEqual(['design']);
  });

  it('a missing or hidden channel is STREAM_DOES_NOT_EXIST, also from another organization', async () => {
    const hidden = await fails(t, UNSUBSCRIBE, { subs: ['vault'] }, moderator, ROOT);
    expect(hidden.error.extensions?.code).toBe('STREAM_DOES_NOT_EXIST');
    expect(hidden.error.message).toBe("Channel 'vault' does not exist");
    const other = await fails(t, UNSUBSCRIBE, { subs: ['vault'] }, boss, OTHER);
    expect(other.error.extensions?.code).toBe('STREAM_DOES_NOT_EXIST');
  });
});

describe('updateSubscriptions', () => {
  const UPDATE = `mutation($add: [SubscriptionSpec!]!, $del: [String!]!) { updateSubscriptions(add: $add, delete: $del) { subscribed alreadySubscribed removed notRemoved } }`;
  it('joins and leaves together, or not at all', async () => {
    const data = await ok(t, UPDATE, { add: [{ name: 'gql-swap' }], del: ['design'] }, bob, ROOT);
    expect(data.updateSubscriptions).toEqual({ subscribed: { [bob.userId]: ['gql-swap'] }, alreadySubscribed: {}, removed: ['design'], notRemoved: [] });
    const bad = await fails(t, UPDATE, { add: [{ name: 'gql-never' }], del: ['gql-swap', 'vault'] }, moderator, ROOT);
    expect(bad.error.extensions?.code).toBe('STREAM_DOES_NOT_EXIST');
    expect(await t.db.channel.findFirst({ where: { name: 'gql-never' } })).toBeNull();
    await ok(t, SUBSCRIBE, { subs: [{ name: 'design' }] }, bob, ROOT);
  });
});

describe('updateSubscriptionProperties', () => {
  it('changes the viewer\'s settings, visible in the subscriptions query', async () => {
    await ok(t, PROPS, { data: [{ stream_id: design, property: 'is_muted', value: true }, { stream_id: design, property: 'color', value: '#112233' }] }, bob, ROOT);
    const subs = await ok(t, '{ subscriptions { channel { streamId } isMuted inHomeView color } }', {}, bob, ROOT);
    expect(subs.subscriptions.find((s: any) => s.channel.streamId === design)).toMatchObject({ isMuted: true, inHomeView: false, color: '#112233' });
  });

  it('refuses channels the viewer is not in, and other organizations\' channels', async () => {
    expect((await fails(t, PROPS, { data: [{ stream_id: vault, property: 'is_muted', value: true }] }, moderator, ROOT)).error.message).toBe('Invalid channel ID');
    expect((await fails(t, PROPS, { data: [{ stream_id: design, property: 'is_muted', value: true }] }, boss, OTHER)).error.message).toBe('Invalid channel ID');
    expect((await fails(t, PROPS, { data: [{ stream_id: design, property: 'is_muted', value: true }] }, guest, ROOT)).error.message).toBe('Invalid channel ID');
    expect((await fails(t, PROPS, { data: { stream_id: design } }, bob, ROOT)).error.message).toBe('subscription_data is not a list');
  });
});

describe('subscriber lists', () => {
  it('channelSubscribers: subscribers and administrators see a private channel\'s members; nobody else', async () => {
    expect((await ok(t, MEMBERS, { id: vault }, alice, ROOT)).channelSubscribers).toEqual([alice.userId, bob.userId].sort((a, b) => a - b));
    expect((await ok(t, MEMBERS, { id: vault }, admin, ROOT)).channelSubscribers).toEqual([alice.userId, bob.userId].sort((a, b) => a - b));
    for (const who of [moderator, guest, bot]) expect((await fails(t, MEMBERS, { id: vault }, who, ROOT)).error.message).toBe('Invalid channel ID');
    expect((await fails(t, MEMBERS, { id: vault }, boss, OTHER)).error.message).toBe('Invalid channel ID');
    expect((await fails(t, MEMBERS, { id: design }, boss, OTHER)).error.message).toBe('Invalid channel ID');
  });

  it('isSubscribed for oneself and others, with the same access rules', async () => {
    expect((await ok(t, IS_SUBSCRIBED, { id: design }, bob, ROOT)).isSubscribed).toBe(true);
    expect((await ok(t, IS_SUBSCRIBED, { user: alice.userId, id: design }, moderator, ROOT)).isSubscribed).toBe(true);
    expect((await fails(t, IS_SUBSCRIBED, { user: alice.userId, id: vault }, moderator, ROOT)).error.message).toBe('Invalid channel ID');
    expect((await fails(t, IS_SUBSCRIBED, { user: alice.userId, id: design }, boss, OTHER)).error.message).toBe('No such user');
  });

  it('subscriberList on each subscription, full below 250 subscribers', async () => {
    const subs = await ok(t, '{ subscriptions { channel { name } subscriberList(partial: true) { userIds partial } } }', {}, alice, ROOT);
    const v = subs.subscriptions.find((s: any) => s.channel.name === 'vault');
    expect(v.subscriberList).toEqual({ userIds: [alice.userId, bob.userId].sort((a, b) => a - b), partial: false });
  });
});
