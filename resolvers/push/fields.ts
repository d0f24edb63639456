import { builder } from '../../schema/builder.ts';
import { forUser, userAction } from '../../schema/fields.ts';
import { PushDeviceType } from '../../schema/push.ts';
import { listPushDevices, registerPushDevice } from './register.ts';
import { addLegacyPushToken, removeLegacyPushToken, sendTestPushNotification, type LegacyKind } from './legacy.ts';
import { InvalidArgumentError } from '../errors.ts';

function legacyKind(kind: string): LegacyKind {
  if (kind !== 'apns' && kind !== 'fcm') throw new InvalidArgumentError('kind', 'Invalid kind');
  return kind;
}

builder.queryFields((t) => ({
  pushDevices: t.field({
    type: [PushDeviceType],
    description: "The viewer's end-to-end-encrypted push registrations.",
    resolve: forUser(listPushDevices),
  }),
}));

builder.mutationFields((t) => ({
  registerPushDevice: t.boolean({
    description: 'Registers a device for end-to-end-encrypted push notifications, or rotates its push key or its token (Zulip\'s POST /mobile_push/register). '
      + 'Initial registration needs the push-key fields and the token fields together; a rotation sends one group only. Needs a configured push service.',
    args: {
      deviceId: t.arg.string({ required: true, description: 'The device ID (decimal integer, up to 64 bits).' }),
      pushKeyId: t.arg.string({ description: 'Push-key field: unsigned 32-bit ID of the key (decimal).' }),
      pushKey: t.arg.string({ description: 'Push-key field: standard Base64 of byte 0x31 followed by a 32-byte secretbox key.' }),
      tokenKind: t.arg.string({ description: 'Token field: `android_push` or `ios_push` (Zulip\'s `fcm` and `apns` are accepted too).' }),
      tokenId: t.arg.string({ description: "Token field: standard Base64 of the first 8 bytes of the SHA-256 of the provider's token." }),
      bouncerPublicKey: t.arg.string({ description: "Token field: the push relay's public key used (standard Base64); must be one the server knows." }),
      encryptedPushRegistration: t.arg.string({ description: 'Token field: Base64 ciphertext of the registration, for the push relay.' }),
    },
    resolve: userAction(registerPushDevice),
  }),
  addLegacyPushToken: t.boolean({
    description: 'Registers a pre-E2EE device token (deprecated; Zulip\'s apns_device_token / android_gcm_reg_id).',
    args: {
      kind: t.arg.string({ required: true, description: '`apns` (iOS) or `fcm` (Android).' }),
      token: t.arg.string({ required: true, description: 'The provider token (APNs: hex or Base64).' }),
      appId: t.arg.string({ description: 'The iOS app ID; required for `apns`.' }),
    },
    resolve: userAction((ctx, user, args) => addLegacyPushToken(ctx, user, { kind: legacyKind(args.kind), token: args.token, appId: args.appId })),
  }),
  sendTestPushNotification: t.boolean({
    description: 'Sends a test push notification to one of the viewer\'s devices (by token) or all of them. Parley delivers no push notifications, so this answers PUSH_SERVICE_NOT_CONFIGURED once the token is checked.',
    args: { token: t.arg.string({ description: 'A push token the viewer registered; omitted: every device.' }) },
    resolve: forUser((ctx, user, args) => sendTestPushNotification(ctx, user, args.token)),
  }),
  removeLegacyPushToken: t.boolean({
    description: 'Removes a pre-E2EE device token of the viewer.',
    args: {
      kind: t.arg.string({ required: true, description: '`apns` or `fcm`.' }),
      token: t.arg.string({ required: true, description: 'The token to remove.' }),
    },
    resolve: userAction((ctx, user, args) => removeLegacyPushToken(ctx, user, { kind: legacyKind(args.kind), token: args.token })),
  }),
}));
