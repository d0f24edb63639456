import { builder } from './builder.ts';

export const CustomProfileFieldType = builder.prismaObject('CustomProfileField', {
  description: 'A custom profile field the organization defines for every user\'s profile.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The unique ID of the field.' }),
    name: t.exposeString('name', { description: 'The label shown for the field.' }),
    hint: t.exposeString('hint', { description: 'Help text shown when editing the field.' }),
    type: t.exposeInt('fieldType', { description: 'Field type: 1 short text, 2 long text, 3 list of options, 4 date, 5 link, 6 users, 7 external account, 8 pronouns.' }),
    fieldData: t.exposeString('fieldData', { description: 'JSON-encoded type configuration (options of a select field, external account subtype), or empty.' }),
    order: t.exposeInt('order', { description: 'Position among the organization\'s fields (ascending).' }),
    displayInProfileSummary: t.exposeBoolean('displayInProfileSummary', { description: 'Shown in the profile summary (at most two fields).' }),
    required: t.exposeBoolean('required', { description: 'Administrators ask every user to fill it in.' }),
    editableByUser: t.exposeBoolean('editableByUser', { description: 'Users may edit their own value (administrators always may).' }),
  }),
});

export const ProfileDataInput = builder.inputType('ProfileDataInput', {
  description: 'One custom profile field value to set.',
  fields: (t) => ({
    id: t.int({ required: true, description: 'The custom profile field ID.' }),
    value: t.field({ type: 'JSON', description: 'A string, a list of user IDs (Users fields), or null/empty to remove the value.' }),
  }),
});
