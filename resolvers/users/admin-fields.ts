// GraphQL fields for user administration (update, deactivate, reactivate) and custom profile fields.
import { builder } from '../../schema/builder.ts';
import { forUser, userAction } from '../../schema/fields.ts';
import { CustomProfileFieldType, ProfileDataInput } from '../../schema/profile-fields.ts';
import { requireUser, type Context } from '../../schema/context.ts';
import type { Prisma, User } from '../../prisma/generated/client/client.ts';
import { updateOwnProfileData, updateUser, requireAdmin } from './update.ts';
import { deactivateSelf, deactivateUser, reactivateUser } from './deactivate.ts';
import { createField, deleteField, fieldRecord, realmFields, reorderFields, updateField } from './profile-fields.ts';
import { parseProfileData } from './profile-data.ts';
import { activeUserIds } from './audience.ts';

/**
 * An administrator's change to the custom profile fields, in one transaction; then everyone hears
 * the organization's complete, reordered field list.
 */
async function changeFields<T>(ctx: Context, actor: User, change: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  requireAdmin(actor);
  const result = await ctx.db.$transaction(change);
  const fields = await realmFields(ctx.db, ctx.realm.id);
  ctx.events.publish(ctx.realm.id, await activeUserIds(ctx.db, ctx.realm.id), { type: 'custom_profile_fields', fields: fields.map(fieldRecord) });
  return result;
}

builder.queryFields((t) => ({
  customProfileFields: t.prismaField({
    type: [CustomProfileFieldType],
    description: 'The organization\'s custom profile fields, in display order.',
    resolve: (query, _root, _args, ctx) => {
      requireUser(ctx);
      return ctx.db.customProfileField.findMany({ ...query, where: { realmId: ctx.realm.id }, orderBy: [{ order: 'asc' }, { id: 'asc' }] });
    },
  }),
}));

builder.mutationFields((t) => ({
  updateUser: t.boolean({
    description: 'Changes another user\'s name, role, custom profile data or email (administrators; owner role and email changes need an owner).',
    args: {
      userId: t.arg.int({ required: true, description: 'The user to change.' }),
      fullName: t.arg.string({ description: 'New full name.' }),
      role: t.arg.int({ description: 'New role code: 100, 200, 300, 400 or 600.' }),
      profileData: t.arg({ type: [ProfileDataInput], description: 'Custom profile field values to set or (null) remove.' }),
      newEmail: t.arg.string({ description: 'New email address (owners with the can_change_user_emails permission).' }),
    },
    resolve: userAction((ctx, actor, args) => updateUser(ctx, actor, args.userId, {
      fullName: args.fullName, role: args.role, newEmail: args.newEmail,
      profileData: args.profileData ? parseProfileData(args.profileData.map((d) => ({ id: d.id, value: d.value ?? null }))) : null,
    })),
  }),
  updateOwnProfileData: t.boolean({
    description: 'Sets or removes the viewer\'s own values for fields users may edit.',
    args: { data: t.arg({ type: [ProfileDataInput], required: true, description: 'Field values; null or empty removes one.' }) },
    resolve: userAction((ctx, actor, args) => updateOwnProfileData(ctx, actor, parseProfileData(args.data.map((d) => ({ id: d.id, value: d.value ?? null })), 'data'))),
  }),
  removeOwnProfileData: t.boolean({
    description: 'Removes the viewer\'s own values for these fields.',
    args: { fieldIds: t.arg.intList({ required: true, description: 'IDs of the fields to clear.' }) },
    resolve: userAction((ctx, actor, args) => updateOwnProfileData(ctx, actor, args.fieldIds.map((id) => ({ id, value: null })))),
  }),
  deactivateUser: t.boolean({
    description: 'Deactivates a user and the bots they own (administrators; owners only by owners; never the only owner).',
    args: {
      userId: t.arg.int({ required: true, description: 'The user to deactivate.' }),
      deactivationNotificationComment: t.arg.string({
        description: 'If given (even empty), the user is e-mailed that their account was deactivated, with this comment (at most 2000 characters).',
      }),
    },
    resolve: userAction((ctx, user, args) => deactivateUser(ctx, user, args.userId, args.deactivationNotificationComment)),
  }),
  deactivateOwnAccount: t.boolean({
    description: 'Deactivates the viewer\'s own account (not the only owner or the only user).',
    resolve: userAction(deactivateSelf),
  }),
  reactivateUser: t.boolean({
    description: 'Reactivates a deactivated user (administrators).',
    args: { userId: t.arg.int({ required: true, description: 'The user to reactivate.' }) },
    resolve: userAction((ctx, user, args) => reactivateUser(ctx, user, args.userId)),
  }),
  createCustomProfileField: t.int({
    description: 'Adds a custom profile field (administrators) and returns its ID.',
    args: {
      name: t.arg.string({ defaultValue: '', description: 'The label.' }),
      hint: t.arg.string({ defaultValue: '', description: 'Help text.' }),
      fieldType: t.arg.int({ required: true, description: 'Field type code (1-8).' }),
      fieldData: t.arg({ type: 'JSON', description: 'Options of a select field, or the external account subtype.' }),
      displayInProfileSummary: t.arg.boolean({ defaultValue: false, description: 'Show in profile summaries.' }),
      required: t.arg.boolean({ defaultValue: false, description: 'Ask every user to fill it in.' }),
      editableByUser: t.arg.boolean({ defaultValue: true, description: 'Users may edit their own value.' }),
    },
    resolve: forUser(async (ctx, actor, args) => {
      const field = await changeFields(ctx, actor, (tx) => createField(tx, ctx.realm.id, {
        name: args.name ?? '', hint: args.hint ?? '', fieldType: args.fieldType, fieldData: args.fieldData ?? {},
        displayInProfileSummary: args.displayInProfileSummary ?? false, required: args.required ?? false, editableByUser: args.editableByUser ?? true,
      }));
      return field.id;
    }),
  }),
  updateCustomProfileField: t.boolean({
    description: 'Changes a custom profile field (administrators); omitted arguments keep their value.',
    args: {
      fieldId: t.arg.int({ required: true, description: 'The field to change.' }),
      name: t.arg.string({ description: 'New label.' }),
      hint: t.arg.string({ description: 'New help text.' }),
      fieldData: t.arg({ type: 'JSON', description: 'New type configuration.' }),
      displayInProfileSummary: t.arg.boolean({ description: 'Show in profile summaries.' }),
      required: t.arg.boolean({ description: 'Ask every user to fill it in.' }),
      editableByUser: t.arg.boolean({ description: 'Users may edit their own value.' }),
    },
    resolve: userAction((ctx, actor, args) => changeFields(ctx, actor, (tx) => updateField(tx, ctx.realm.id, args.fieldId, args))),
  }),
  deleteCustomProfileField: t.boolean({
    description: 'Deletes a custom profile field and every user\'s value for it (administrators).',
    args: { fieldId: t.arg.int({ required: true, description: 'The field to delete.' }) },
    resolve: userAction((ctx, actor, args) => changeFields(ctx, actor, (tx) => deleteField(tx, ctx.realm.id, args.fieldId))),
  }),
  reorderCustomProfileFields: t.boolean({
    description: 'Puts the organization\'s custom profile fields in this order (administrators; every field\'s ID once).',
    args: { order: t.arg.intList({ required: true, description: 'All field IDs in the new order.' }) },
    resolve: userAction((ctx, actor, args) => changeFields(ctx, actor, (tx) => reorderFields(tx, ctx.realm.id, args.order))),
  }),
}));
