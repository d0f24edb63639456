// Mobile push: E2EE device registration and the deprecated plain device tokens.
import type { Route } from '../route.ts';

const ADD_LEGACY = `mutation($kind: String!, $token: String!, $appId: String) { addLegacyPushToken(kind: $kind, token: $token, appId: $appId) }`;
const REMOVE_LEGACY = `mutation($kind: String!, $token: String!) { removeLegacyPushToken(kind: $kind, token: $token) }`;

/** The spec's name for the APNs endpoint, and Zulip's. */
const IOS_PATHS = ['/users/me/ios_push_device_token', '/users/me/apns_device_token'];

export const pushRoutes: Route[] = [
  {
    method: 'POST', path: '/mobile_push/register',
    params: {
      // Beyond 32 bits (device IDs are 64-bit, key IDs unsigned 32-bit): decoded by the resolver.
      device_id: { type: 'stringOrInt', required: true },
      push_key_id: { type: 'stringOrInt' },
      push_key: { type: 'string' },
      token_kind: { type: 'string' },
      token_id: { type: 'string' },
      bouncer_public_key: { type: 'string' },
      encrypted_push_registration: { type: 'string' },
    },
    document: `mutation($deviceId: String!, $pushKeyId: String, $pushKey: String, $tokenKind: String, $tokenId: String, $bouncerPublicKey: String, $encryptedPushRegistration: String) {
      registerPushDevice(deviceId: $deviceId, pushKeyId: $pushKeyId, pushKey: $pushKey, tokenKind: $tokenKind, tokenId: $tokenId, bouncerPublicKey: $bouncerPublicKey, encryptedPushRegistration: $encryptedPushRegistration) }`,
  },
  ...IOS_PATHS.flatMap((path): Route[] => [
    {
      method: 'POST', path,
      params: { token: { type: 'string', required: true }, appid: { type: 'string', required: true } },
      document: ADD_LEGACY,
      variables: (p) => ({ kind: 'apns', token: p.token, appId: p.appid }),
    },
    {
      method: 'DELETE', path,
      params: { token: { type: 'string', required: true } },
      document: REMOVE_LEGACY,
      variables: (p) => ({ kind: 'apns', token: p.token }),
    },
  ]),
  {
    method: 'POST', path: '/users/me/android_gcm_reg_id',
    params: { token: { type: 'string', required: true } },
    document: ADD_LEGACY,
    variables: (p) => ({ kind: 'fcm', token: p.token }),
  },
  {
    method: 'DELETE', path: '/users/me/android_gcm_reg_id',
    params: { token: { type: 'string', required: true } },
    document: REMOVE_LEGACY,
    variables: (p) => ({ kind: 'fcm', token: p.token }),
  },
];
