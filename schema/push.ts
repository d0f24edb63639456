import { builder } from './builder.ts';

export interface PushDeviceShape {
  deviceId: string;
  pushKeyId: string | null;
  tokenKind: string | null;
  tokenId: string | null;
  lastUpdated: number;
}

export const PushDeviceType = builder.objectRef<PushDeviceShape>('PushDevice').implement({
  description: "One of the viewer's end-to-end-encrypted push registrations (the key itself is never shown).",
  fields: (t) => ({
    deviceId: t.exposeString('deviceId', { description: 'The client-chosen device ID (a decimal integer, possibly beyond 32 bits).' }),
    pushKeyId: t.exposeString('pushKeyId', { nullable: true, description: 'The current push key\'s ID (unsigned 32-bit, as a decimal string).' }),
    tokenKind: t.exposeString('tokenKind', { nullable: true, description: '`android_push` or `ios_push`.' }),
    tokenId: t.exposeString('tokenId', { nullable: true, description: "Base64 of the first 8 bytes of the SHA-256 of the provider's token." }),
    lastUpdated: t.exposeInt('lastUpdated', { description: 'Last registration or rotation (Unix seconds).' }),
  }),
});
