// GraphQL fields for user administration (update, deactivate, reactivate) and custom profile fields.
import { builder } from '../../schema/builder.ts';
import { CustomProfileFieldType, ProfileDataInput } from '../../schema/profile-fields.ts';
import { requireUser, type Context } from '../../schema/context.ts';
import { updateOwnProfileData, updateUser, requireAdmin } from './update.ts';
import { deactivateSelf, deactivateUser, reactivateUser } from './deactivate.ts';
import { createField, deleteField, fieldRecord, realmFields, reorderFields, updateField } from './profile-fields.ts';
import { parseProfileData } from './profile-data.ts';
import { activeUserIds } from './audience.ts';

/** Everyone hears the organization's complete, reordered field list after any change. */
async function publishFields(ctx: Context): Promise<void> {
  const fields = await realmFields(ctx.db, ctx.realm.id);
  ctx.events.publish(ctx.realm.id, await activeUserIds(ctx.db, ctx.realm.id), { type: 'custom_profile_fields', fields: fields.map(fieldRecord) });
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
    resolve: async (_root, args, ctx) => {
      const actor = requireUser(ctx);
      await updateUser(ctx, actor, args.userId, {
        fullName: args.fullName, role: args.role, newEmail: args.newEmail,
        profileData: args.profileData ? parseProfileData(args.profileData.map((d) => ({ id: d.id, value: d.value ?? null }))) : null,
      });
      return true;
    },
  }),
  updateOwnProfileData: t.boolean({
    description: 'Sets or removes the viewer\'s own values for fields users may edit.',
    args: { data: t.arg({ type: [ProfileDataInput], required: true, description: 'Field values; null or empty removes one.' }) },
    resolve: async (_root, args, ctx) => {
      const actor = requireUser(ctx);
      await updateOwnProfileData(ctx, actor, parseProfileData(args.data.map((d) => ({ id: d.id, value: d.value ?? null })), 'data'));
      return true;
    },
  }),
  removeOwnProfileData: t.boolean({
    description: 'Removes the viewer\'s own values for these fields.',
    args: { fieldIds: t.arg.intList({ required: true, description: 'IDs of the fields to clear.' }) },
    resolve: async (_root, args, ctx) => {
      const actor = requireUser(ctx);
      await updateOwnProfileData(ctx, actor, args.fieldIds.map((id) => ({ id, value: null })));
      return true;
    },
  }),
  deactivateUser: t.boolean({
    description: 'Deactivates a user and the bots they own (administrators; owners only by owners; never the only owner).',
    args: {
      userId: t.arg.int({ required: true, description: 'The user to deactivate.' }),
      deactivationNotificationComment: t.arg.string({
        description: 'If given (even empty), the user is e-mailed that their account was deactivated, with this comment (at most 2000 characters).',
      }),
    },
    resolve: async (_root, args, ctx) => {
      await deactivateUser(ctx, requireUser(ctx), args.userId, args.deactivationNotificationComment);
      return true;
    },
  }),
  deactivateOwnAccount: t.boolean({
    description: 'Deactivates the viewer\'s own account (not the only owner or the only user).',
    resolve: async (_root, _args, ctx) => {
      await deactivateSelf(ctx, requireUser(ctx));
      return true;
    },
  }),
  reactivateUser: t.boolean({
    description: 'Reactivates a deactivated user (administrators).',
    args: { userId: t.arg.int({ required: true, description: 'The user to reactivate.' }) },
    resolve: async (_root, args, ctx) => {
      await reactivateUser(ctx, requireUser(ctx), args.userId);
      return true;
    },
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
    resolve: async (_root, args, ctx) => {
      requireAdmin(requireUser(ctx));
      const field = await ctx.db.$transaction((tx) => createField(tx, ctx.realm.id, {
        name: args.name ?? '', hint: args.hint ?? '', fieldType: args.fieldType, fieldData: args.fieldData ?? {},
        displayInProfileSummary: args.displayInProfileSummary ?? false, required: args.required ?? false, editableByUser: args.editableByUser ?? true,
      }));
      await publishFields(ctx);
      return field.id;
    },
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
    resolve: async (_root, args, ctx) => {
      requireAdmin(requireUser(ctx));
      await ctx.db.$transaction((tx) => updateField(tx, ctx.realm.id, args.fieldId, args));
      await publishFields(ctx);
      return true;
    },
  }),
  deleteCustomProfileField: t.boolean({
    description: 'Deletes a custom profile field and every user\'s value for it (administrators).',
    args: { fieldId: t.arg.int({ required: true, description: 'The field to delete.' }) },
    resolve: async (_root, args, ctx) => {
      requireAdmin(requireUser(ctx));
      await ctx.db.$transaction((tx) => deleteField(tx, ctx.realm.id, args.fieldId));
      await publishFields(ctx);
      return true;
    },
  }),
  reorderCustomProfileFields: t.boolean({
    description: 'Puts the organization\'s custom profile fields in this order (administrators; every field\'s ID once).',
    args: { order: t.arg.intList({ required: true, description: 'All field IDs in the new order.' }) },
    resolve: async (_root, args, ctx) => {
      requireAdmin(requireUser(ctx));
      await ctx.db.$transaction((tx) => reorderFields(tx, ctx.realm.id, args.order));
      await publishFields(ctx);
      return true;
    },
  }),
}));
