// PATCH /realm: the organization's notification channels (moderation requests, new-channel,
// signup and Zulip-update announcements), as Zulip's do_set_realm_*_stream actions.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel } from '../support/factories.ts';
import { graphql, type ApiClient } from '../support/client.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

let publicChannel: number;
let privateChannel: number;
const t = useTestServer({ scheduledPollMs: 0 });
const { admin, member, moderator } = useTeam(t, ['admin', 'member', 'moderator']);

const realmState = async (client: ApiClient) => (await client.post('/register', { fetch_event_types: ['realm'] })).body;

beforeAll(async () => {
  publicChannel = await makeChannel(t.client(member), 'announcements');
  // Created by the member: the administrator is not subscribed, and still may choose it.
  privateChannel = await makeChannel(t.client(member), 'mod-queue', { invite_only: true });
});

describe('PATCH /realm notification channels', () => {
  it('lets administrators set and clear them, and tells every user', async () => {
    const queue = (await registerQueue(t.client(member), { event_types: ['realm'] })).queue_id;
    const res = await t.client(admin).patch('/realm', { moderation_request_channel_id: privateChannel, new_stream_announcements_stream_id: publicChannel });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await realmState(t.client(member))).toMatchObject({
      realm_moderation_request_channel_id: privateChannel, realm_new_stream_announcements_stream_id: publicChannel,
    });
    const events = await allEvents(t.client(member), queue);
    expect(events).toEqual(expect.arrayContaining([
      expect.objectContaining({ type: 'realm', op: 'update', property: 'moderation_request_channel_id', value: privateChannel }),
      expect.objectContaining({ type: 'realm', op: 'update', property: 'new_stream_announcements_stream_id', value: publicChannel }),
    ]));
    expect((await t.client(admin).patch('/realm', { moderation_request_channel_id: -1 })).status).toBe(200);
    expect((await realmState(t.client(member))).realm_moderation_request_channel_id).toBe(-1);
  });

  it('is for administrators only, and a refusal changes nothing', async () => {
    for (const who of [member, moderator]) {
      const res = await t.client(who).patch('/realm', { signup_announcements_stream_id: publicChannel });
      expect(res.body).toMatchObject({ result: 'error', code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
    }
    expect((await realmState(t.client(member))).realm_signup_announcements_stream_id).not.toBe(publicChannel);
  });

  it('refuses a public channel for moderation requests, and unknown or other-realm channels', async () => {
    const pub = await t.client(admin).patch('/realm', { moderation_request_channel_id: publicChannel });
    expect(pub.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Moderation request channel must be private.' });
    const missing = await t.client(admin).patch('/realm', { new_stream_announcements_stream_id: 999999 });
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toBe('Invalid channel ID');
    const { createRealm } = await import('../../resolvers/realm/create.ts');
    const { owner: other } = await createRealm(t.db, { stringId: 'elsewhere', name: 'Elsewhere', ownerEmail: 'o@elsewhere.example.com' });
    const foreign = await t.db.channel.findFirstOrThrow({ where: { realmId: other.realmId } });
    const cross = await t.client(admin).patch('/realm', { new_stream_announcements_stream_id: foreign.id });
    expect(cross.body).toEqual(missing.body);
  });

  it('reports unknown parameters as ignored', async () => {
    const res = await t.client(admin).patch('/realm', { zulip_update_announcements_stream_id: publicChannel, frobnicate: true });
    expect(res.status).toBe(200);
    expect(res.body.ignored_parameters_unsupported).toEqual(['frobnicate']);
  });
});

describe('GraphQL updateRealm: notification channels', () => {
  it('applies the same rules', async () => {
    const query = 'mutation($c: RealmSettingsInput!) { updateRealm(settings: $c) }';
    const denied = await graphql(t.baseUrl, query, { c: { signupAnnouncementsStreamId: publicChannel } }, member);
    expect(denied.body.errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED_PRINCIPAL');
    const ok = await graphql(t.baseUrl, query, { c: { signupAnnouncementsStreamId: publicChannel } }, admin);
    expect(ok.body.data?.updateRealm).toEqual({ signup_announcements_stream_id: publicChannel });
  });
});
