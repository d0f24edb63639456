import { builder } from './builder.ts';
import { canSeeDeliveryEmail } from '../resolvers/users/present.ts';
import { avatarUrlFor } from '../resolvers/users/avatars.ts';
import { isAdmin, isOwner, isGuest } from '../resolvers/users/roles.ts';

export const Role = builder.enumType('Role', {
  description: 'Organization-level role; the values are Zulip\'s role codes.',
  values: {
    OWNER: { value: 100, description: 'Organization owner (100).' },
    ADMINISTRATOR: { value: 200, description: 'Organization administrator (200).' },
    MODERATOR: { value: 300, description: 'Organization moderator (300).' },
    MEMBER: { value: 400, description: 'Member (400).' },
    GUEST: { value: 600, description: 'Guest (600).' },
  } as const,
});

export const UserType = builder.prismaObject('User', {
  description: 'A human or bot account in the viewer\'s organization.',
  fields: (t) => ({
    userId: t.exposeInt('id', { description: 'The unique ID of the user.' }),
    email: t.exposeString('email', { description: 'The API email address (usable for API calls, not necessarily deliverable).' }),
    deliveryEmail: t.string({
      nullable: true,
      description: 'The real email address, or null when the viewer may not see it.',
      select: { isBot: true, settings: true },
      resolve: (user, _args, ctx) => (canSeeDeliveryEmail(ctx.user, user) ? user.deliveryEmail : null),
    }),
    fullName: t.exposeString('fullName', { description: 'The name shown everywhere.' }),
    dateJoined: t.string({ description: 'ISO 8601 time the account was created.', resolve: (u) => u.dateJoined.toISOString() }),
    isActive: t.exposeBoolean('isActive', { description: 'False once the account is deactivated.' }),
    role: t.exposeInt('role', { description: 'Role code: 100 owner, 200 administrator, 300 moderator, 400 member, 600 guest.' }),
    isOwner: t.boolean({ description: 'Role is owner.', resolve: (u) => isOwner(u) }),
    isAdmin: t.boolean({ description: 'True for administrators and owners.', resolve: (u) => isAdmin(u) }),
    isGuest: t.boolean({ description: 'Role is guest.', resolve: (u) => isGuest(u) }),
    isBot: t.exposeBoolean('isBot', { description: 'A bot account.' }),
    botType: t.exposeInt('botType', { nullable: true, description: '1 generic, 2 incoming webhook, 3 outgoing webhook, 4 embedded; null for humans.' }),
    botOwnerId: t.exposeInt('botOwnerId', { description: 'The bot’s owner; null for humans.', nullable: true }),
    timezone: t.exposeString('timezone', { description: 'IANA time zone, or empty.' }),
    avatarVersion: t.exposeInt('avatarVersion', { description: 'Changes whenever the avatar does (cache busting).' }),
    avatarUrl: t.string({
      nullable: true,
      description: 'Avatar URL; null when `clientGravatar` is true and the client can compute the gravatar from the visible email.',
      args: { clientGravatar: t.arg.boolean({ defaultValue: true }) },
      resolve: (user, args, ctx) => avatarUrlFor(ctx.user, user, { clientGravatar: args.clientGravatar ?? true, gravatar: ctx.config.gravatarEnabled }),
    }),
    profileData: t.field({
      type: 'JSON',
      nullable: true,
      description: 'Custom profile field values keyed by field ID: `{value, rendered_value?}`. Null for bots, which cannot have custom profile fields (Zulip leaves `profile_data` out for them).',
      select: { isBot: true, profileValues: { select: { fieldId: true, value: true, renderedValue: true } } },
      resolve: (user) =>
        user.isBot ? null : Object.fromEntries(
          user.profileValues.map((v) => [
            String(v.fieldId),
            v.renderedValue == null ? { value: v.value } : { value: v.value, rendered_value: v.renderedValue },
          ]),
        ),
    }),
  }),
});
