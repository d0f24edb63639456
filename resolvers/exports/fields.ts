// GraphQL fields of organization exports.
import { builder } from '../../schema/builder.ts';
import { forUser, userAction } from '../../schema/fields.ts';
import { deleteExport, exportConsents, listExports, requestExport, type ExportRecord } from './exports.ts';

const RealmExportType = builder.objectRef<ExportRecord>('RealmExport').implement({
  description: 'A data export of the organization (Zulip\'s RealmExport).',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The export\'s ID.' }),
    actingUserId: t.int({ nullable: true, description: 'Who requested it.', resolve: (e) => e.acting_user_id }),
    exportTime: t.float({ description: 'When it was requested (UNIX seconds).', resolve: (e) => e.export_time }),
    deletedTimestamp: t.float({ nullable: true, description: 'When its archive was deleted, if it was.', resolve: (e) => e.deleted_timestamp }),
    failedTimestamp: t.float({ nullable: true, description: 'When building it failed, if it did.', resolve: (e) => e.failed_timestamp }),
    exportUrl: t.string({ nullable: true, description: 'Where to download the archive (a gzipped tar), once built and until deleted.', resolve: (e) => e.export_url }),
    pending: t.exposeBoolean('pending', { description: 'Still being built.' }),
    exportType: t.int({ description: '1 public data, 2 standard (with the private data of members who consented).', resolve: (e) => e.export_type }),
  }),
});

const ExportConsentType = builder.objectRef<{ user_id: number; consented: boolean }>('ExportConsent').implement({
  description: 'Whether a member allows administrators to export their private data.',
  fields: (t) => ({
    userId: t.int({ description: 'The member.', resolve: (c) => c.user_id }),
    consented: t.exposeBoolean('consented', { description: 'Their allow_private_data_export setting.' }),
  }),
});

builder.queryFields((t) => ({
  realmExports: t.field({
    type: [RealmExportType],
    description: 'The organization\'s data exports (administrators).',
    resolve: forUser(listExports),
  }),
  realmExportConsents: t.field({
    type: [ExportConsentType],
    description: 'Which active members consent to their private data being exported (administrators).',
    resolve: forUser(exportConsents),
  }),
}));

builder.mutationFields((t) => ({
  exportRealm: t.int({
    description: 'Requests a data export of the organization (administrators), built in the background; `realm_export` events follow it. Returns its ID.',
    args: { exportType: t.arg.int({ description: '1 public data (default), 2 standard: also the private data of members who consented.' }) },
    resolve: forUser((ctx, user, args) => requestExport(ctx, user, args.exportType)),
  }),
  deleteRealmExport: t.boolean({
    description: 'Deletes a finished export\'s archive (administrators).',
    args: { exportId: t.arg.int({ required: true, description: 'The export\'s ID.' }) },
    resolve: userAction((ctx, user, args) => deleteExport(ctx, user, args.exportId)),
  }),
}));
