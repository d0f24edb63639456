// updateSubscriptionProperties with null: a notification override goes back to inheriting the
// user's default, read back as null on ChannelSubscription; other properties refuse null.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel } from '../support/factories.ts';
import { fails, ok } from './helpers.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

let design: number;
const t = useTestServer();
const { alice } = useTeam(t, ['alice']);

const UPDATE = 'mutation($data: JSON!) { updateSubscriptionProperties(subscriptionData: $data) }';
const LIST = '{ subscriptions { channel { streamId } desktopNotifications audibleNotifications pushNotifications emailNotifications wildcardMentionsNotify pinToTop } }';
const PROPERTIES = ['desktop_notifications', 'audible_notifications', 'push_notifications', 'email_notifications', 'wildcard_mentions_notify'];

async function designSub() {
  const data = await ok(t, LIST, {}, alice);
  return data.subscriptions.find((s: { channel: { streamId: number } }) => s.channel.streamId === design);
}

beforeAll(async () => {
  await makeChannel(t.client(alice), 'design');
  design = (await t.db.channel.findFirstOrThrow({ where: { name: 'design' } })).id;
}, 180_000);

describe('updateSubscriptionProperties: null means inherit', () => {
  it('sets overrides, then resets all five to null', async () => {
    await ok(t, UPDATE, { data: PROPERTIES.map((property) => ({ stream_id: design, property, value: true })) }, alice);
    expect(await designSub()).toMatchObject({ desktopNotifications: true, audibleNotifications: true, pushNotifications: true, emailNotifications: true, wildcardMentionsNotify: true });
    const data = await ok(t, UPDATE, { data: PROPERTIES.map((property) => ({ stream_id: design, property, value: null })) }, alice);
    expect(data.updateSubscriptionProperties).toBe(true);
    expect(await designSub()).toMatchObject({ desktopNotifications: null, audibleNotifications: null, pushNotifications: null, emailNotifications: null, wildcardMentionsNotify: null });
  });

  it('refuses null for pin_to_top with Zulip\'s message and code, changing nothing', async () => {
    const { error } = await fails(t, UPDATE, { data: [{ stream_id: design, property: 'email_notifications', value: false }, { stream_id: design, property: 'pin_to_top', value: null }] }, alice);
    expect(error.message).toBe('pin_to_top is not a boolean');
    expect(error.extensions?.code).toBe('BAD_REQUEST');
    expect(await designSub()).toMatchObject({ emailNotifications: null, pinToTop: false });
  });
});
