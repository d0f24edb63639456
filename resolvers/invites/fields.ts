// GraphQL fields of invitations and sign-up.
import { builder } from '../../schema/builder.ts';
import { action, forUser, userAction } from '../../schema/fields.ts';
import { confirmAddressForLink, createInviteLink, inviteByEmail, listInvitations, resendInvitation, revokeInvitation, type InviteOptions, type InviteRecord } from './invites.ts';
import { signUp } from './signup.ts';
import './events.ts';

const InvitationType = builder.objectRef<InviteRecord>('Invitation').implement({
  description: 'An unexpired invitation: to one e-mail address, or a reusable link (isMultiuse).',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The invitation\'s ID.' }),
    invitedByUserId: t.exposeInt('invitedByUserId', { description: 'Who created it.' }),
    invited: t.exposeInt('invited', { description: 'When it was created or last resent (UNIX seconds).' }),
    expiryDate: t.exposeInt('expiryDate', { nullable: true, description: 'When it expires (UNIX seconds); null: never.' }),
    invitedAs: t.exposeInt('invitedAs', { description: 'The role of the account it creates.' }),
    email: t.exposeString('email', { nullable: true, description: 'The address invited; null for a reusable link.' }),
    notifyReferrerOnJoin: t.exposeBoolean('notifyReferrerOnJoin', { description: 'The creator hears (from the notification bot) when someone joins with it.' }),
    isMultiuse: t.exposeBoolean('isMultiuse', { description: 'A reusable link rather than an e-mail invitation.' }),
    linkUrl: t.exposeString('linkUrl', { description: 'The sign-up link. REST shows it for reusable links only (as Zulip); here it is also the way to hand on an e-mail invitation when the server sends no e-mail.' }),
  }),
});

const SignedUpType = builder.objectRef<{ userId: number; email: string; apiKey: string }>('SignedUp').implement({
  description: 'The account made by signUp, with credentials for HTTP Basic authentication.',
  fields: (t) => ({
    userId: t.exposeInt('userId', { description: 'The new user\'s ID.' }),
    email: t.exposeString('email', { description: 'The new user\'s e-mail address.' }),
    apiKey: t.exposeString('apiKey', { description: 'The new user\'s API key.' }),
  }),
});

function inviteArgs(t: any, withEmailFields: boolean) {
  return {
    inviteExpiresInMinutes: t.arg.int({ description: 'Minutes until the invitation expires; null: never; omitted: ten days.' }),
    inviteAs: t.arg.int({ description: 'Role of the account it creates: 400 member (default), 600 guest; 300, 200 need an administrator, 100 an owner.' }),
    streamIds: t.arg.intList({ required: withEmailFields, description: 'Channels the new user joins: default channels, or ones the inviter may add subscribers to.' }),
    groupIds: t.arg.intList({ description: 'User groups the new user joins (the inviter must be allowed to add members).' }),
    includeRealmDefaultSubscriptions: t.arg.boolean({ description: 'Also join the organization\'s default channels.' }),
  };
}

function optionsOf(args: Record<string, any>): InviteOptions {
  return {
    inviteExpiresInMinutes: args.inviteExpiresInMinutes,
    expiresGiven: args.inviteExpiresInMinutes !== undefined,
    inviteAs: args.inviteAs,
    streamIds: args.streamIds ?? [],
    groupIds: args.groupIds,
    includeRealmDefaultSubscriptions: args.includeRealmDefaultSubscriptions,
    notifyReferrerOnJoin: args.notifyReferrerOnJoin,
  };
}

builder.queryFields((t) => ({
  invitations: t.field({
    type: [InvitationType],
    description: 'Unexpired invitations the viewer manages: every one for administrators, else their own.',
    resolve: forUser(listInvitations),
  }),
}));

builder.mutationFields((t) => ({
  sendInvitations: t.boolean({
    description: 'Invites e-mail addresses (can_invite_users_group). Each gets a sign-up link by e-mail when the server sends e-mail.',
    args: {
      inviteeEmails: t.arg.string({ required: true, description: 'Addresses separated by commas or newlines; `Name <address>` is accepted.' }),
      notifyReferrerOnJoin: t.arg.boolean({ description: 'Tell the inviter when the account is made (default true).' }),
      ...inviteArgs(t, true),
    },
    resolve: userAction((ctx, user, args) => inviteByEmail(ctx, user, args.inviteeEmails, optionsOf(args))),
  }),
  createInviteLink: t.string({
    description: 'Creates a reusable sign-up link (create_multiuse_invite_group) and returns its URL.',
    args: inviteArgs(t, false),
    resolve: forUser((ctx, user, args) => createInviteLink(ctx, user, optionsOf(args))),
  }),
  revokeInvitation: t.boolean({
    description: 'Revokes an e-mail invitation (its creator, or an administrator).',
    args: { inviteId: t.arg.int({ required: true, description: 'The invitation.' }) },
    resolve: userAction((ctx, user, args) => revokeInvitation(ctx, user, args.inviteId, false)),
  }),
  revokeInviteLink: t.boolean({
    description: 'Revokes a reusable link (its creator, or an administrator).',
    args: { inviteId: t.arg.int({ required: true, description: 'The link.' }) },
    resolve: userAction((ctx, user, args) => revokeInvitation(ctx, user, args.inviteId, true)),
  }),
  resendInvitation: t.boolean({
    description: 'Sends an e-mail invitation again (the same link), dated now.',
    args: { inviteId: t.arg.int({ required: true, description: 'The invitation.' }) },
    resolve: userAction((ctx, user, args) => resendInvitation(ctx, user, args.inviteId)),
  }),
  confirmAddressForInviteLink: t.boolean({
    description: 'At a reusable link, on a server that sends e-mail: mails the address a link of its own to sign up with (no credentials needed).',
    args: {
      key: t.arg.string({ required: true, description: 'The key of the reusable link, `/join/<key>/`.' }),
      email: t.arg.string({ required: true, description: 'The address to confirm.' }),
    },
    resolve: action((ctx, args) => confirmAddressForLink(ctx, args.key, args.email)),
  }),
  signUp: t.field({
    type: SignedUpType,
    description: 'Creates an account from an invitation link\'s key (what the sign-up page does); no credentials needed.',
    args: {
      key: t.arg.string({ required: true, description: 'The key of the link, `/join/<key>/`.' }),
      email: t.arg.string({ description: 'Reusable links: the new user\'s address (e-mail invitations use theirs).' }),
      fullName: t.arg.string({ required: true, description: 'The new user\'s name.' }),
      password: t.arg.string({ required: true, description: 'At least 6 characters and hard enough to guess.' }),
    },
    resolve: async (_root, args, ctx) => {
      const user = await signUp(ctx, args.key, { email: args.email, fullName: args.fullName, password: args.password });
      return { userId: user.id, email: user.email, apiKey: user.apiKey };
    },
  }),
}));
