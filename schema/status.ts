// User status: a short text and an emoji a user shows beside their name.
import { builder } from './builder.ts';
import type { StatusView } from '../resolvers/status/update.ts';

export const UserStatusType = builder.objectRef<StatusView>('UserStatus').implement({
  description: 'A user\'s status. Parts the user has not set are null.',
  fields: (t) => ({
    away: t.boolean({ nullable: true, description: 'Deprecated: true when the user does not share their presence (`presence_enabled` off); null otherwise.', resolve: (s) => s.away ?? null }),
    statusText: t.string({ nullable: true, description: 'The status text (at most 60 code points), or null when none is set.', resolve: (s) => s.statusText ?? null }),
    emojiName: t.string({ nullable: true, description: 'The status emoji\'s name, or null when none is set.', resolve: (s) => s.emojiName ?? null }),
    emojiCode: t.string({ nullable: true, description: 'The status emoji\'s code within its `reactionType` namespace.', resolve: (s) => s.emojiCode ?? null }),
    reactionType: t.string({ nullable: true, description: '`unicode_emoji`, `realm_emoji` or `zulip_extra_emoji`.', resolve: (s) => s.reactionType ?? null }),
  }),
});
