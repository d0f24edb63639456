// Mobile push: E2EE device registration and the deprecated plain device tokens.
import type { Route } from '../route.ts';

/** The spec's name for the APNs endpoint, and Zulip's. */
const IOS_PATHS = ['/users/me/ios_push_device_token', '/users/me/apns_device_token'];

export const pushRoutes: Route[] = [
  {
    method: 'POST', path: '/mobile_push/register', field: 'registerPushDevice',
    // Beyond 32 bits (device IDs are 64-bit, key IDs unsigned 32-bit): decoded by the resolver.
    params: { device_id: { decode: 'stringOrInt' }, push_key_id: { decode: 'stringOrInt' } },
  },
  ...IOS_PATHS.flatMap((path): Route[] => [
    { method: 'POST', path, field: 'addLegacyPushToken', fixed: { kind: 'apns' }, params: { appid: { arg: 'appId', required: true } } },
    { method: 'DELETE', path, field: 'removeLegacyPushToken', fixed: { kind: 'apns' } },
  ]),
  { method: 'POST', path: '/users/me/android_gcm_reg_id', field: 'addLegacyPushToken', fixed: { kind: 'fcm' }, hidden: ['appId'] },
  { method: 'DELETE', path: '/users/me/android_gcm_reg_id', field: 'removeLegacyPushToken', fixed: { kind: 'fcm' } },
  { method: 'POST', path: '/mobile_push/test_notification', field: 'sendTestPushNotification' },
];
