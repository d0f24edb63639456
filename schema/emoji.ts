// Custom emoji and file uploads.
import { builder } from './builder.ts';
import type { RealmEmojiRecord } from '../resolvers/emoji/custom.ts';

export const CustomEmojiType = builder.objectRef<RealmEmojiRecord>('CustomEmoji').implement({
  description: 'An emoji image uploaded to the organization (Zulip\'s realm emoji).',
  fields: (t) => ({
    id: t.string({ description: 'The emoji\'s ID (a string, as Zulip sends it); the `emoji_code` of `realm_emoji` reactions.', resolve: (e) => e.id }),
    name: t.string({ description: 'The name used between colons (`:name:`).', resolve: (e) => e.name }),
    sourceUrl: t.string({ description: 'Path, relative to the organization\'s URL, where the image is served.', resolve: (e) => e.source_url }),
    stillUrl: t.string({ nullable: true, description: 'Path of a still frame for animated images; null otherwise.', resolve: (e) => e.still_url }),
    deactivated: t.boolean({ description: 'Deactivated emoji still show in old messages, reactions and statuses but cannot be used anew.', resolve: (e) => e.deactivated }),
    authorId: t.int({ nullable: true, description: 'The user who uploaded it, or null when unknown.', resolve: (e) => e.author_id }),
  }),
});

/**
 * How a file travels in GraphQL: its bytes base64-encoded inside an ordinary JSON variable, so
 * GraphQL-native clients need no multipart protocol. The REST facade fills it from a multipart
 * upload (rest-facade/params.ts, type `file`).
 */
export const FileUploadInput = builder.inputType('FileUpload', {
  description: 'An uploaded file: its name, the content type the client claims, and its bytes in base64.',
  fields: (t) => ({
    fileName: t.string({ required: true, description: 'The file\'s name as uploaded.' }),
    contentType: t.string({ description: 'The content type the client declared (the server checks the bytes itself).' }),
    base64: t.string({ required: true, description: 'The file\'s content, base64-encoded.' }),
  }),
});

/** The argument of fields that take one uploaded image (avatars, the organization's icon and logos). */
export const imageArg = builder.args((t) => ({ files: t.field({ type: [FileUploadInput], required: true, description: 'The image: exactly one.' }) }));
