// GraphQL for channel folders: the list, and administrators' creation, changes and reordering.
import { builder } from '../../schema/builder.ts';
import { forUser, userAction } from '../../schema/fields.ts';
import {
  createChannelFolder, listChannelFolders, reorderChannelFolders, updateChannelFolder,
  MAX_FOLDER_DESCRIPTION_LENGTH, MAX_FOLDER_NAME_LENGTH, type ChannelFolderWire,
} from './folders.ts';

const ChannelFolder = builder.objectRef<ChannelFolderWire>('ChannelFolder').implement({
  description: 'A channel folder: a named group of the organization\'s channels, shown as a section of the sidebar.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The folder\'s ID.' }),
    name: t.exposeString('name', { description: 'Its name, unique in the organization ignoring case.' }),
    description: t.exposeString('description', { description: 'Its description, in Zulip markdown.' }),
    renderedDescription: t.exposeString('rendered_description', { description: 'The description rendered as HTML.' }),
    order: t.exposeInt('order', { description: 'Its position among the organization\'s folders (ascending).' }),
    dateCreated: t.exposeInt('date_created', { description: 'When it was created (Unix seconds).' }),
    creatorId: t.exposeInt('creator_id', { nullable: true, description: 'The user who created it; null if unknown.' }),
    isArchived: t.exposeBoolean('is_archived', { description: 'Whether it is archived: kept, but offered for no channel.' }),
  }),
});

builder.queryFields((t) => ({
  channelFolders: t.field({
    type: [ChannelFolder],
    description: 'The organization\'s channel folders in their order.',
    args: {
      includeArchived: t.arg.boolean({ defaultValue: false, description: 'Include archived folders.' }),
    },
    resolve: forUser((ctx, _user, args) => listChannelFolders(ctx, args.includeArchived ?? false)),
  }),
}));

builder.mutationFields((t) => ({
  createChannelFolder: t.int({
    description: 'Creates a channel folder, last in the order (administrators); returns its ID.',
    args: {
      name: t.arg.string({ required: true, description: `Its name (at most ${MAX_FOLDER_NAME_LENGTH} characters, unique ignoring case).` }),
      description: t.arg.string({ required: true, description: `Its description in Zulip markdown (at most ${MAX_FOLDER_DESCRIPTION_LENGTH} characters).` }),
    },
    resolve: forUser(createChannelFolder),
  }),
  updateChannelFolder: t.boolean({
    description: 'Renames, redescribes, archives or unarchives a channel folder (administrators). A folder holding unarchived channels cannot be archived.',
    args: {
      channelFolderId: t.arg.int({ required: true, description: 'The folder\'s ID.' }),
      name: t.arg.string({ description: 'Its new name.' }),
      description: t.arg.string({ description: 'Its new description.' }),
      isArchived: t.arg.boolean({ description: 'Archive (true) or unarchive (false) it.' }),
    },
    resolve: userAction((ctx, user, args) => updateChannelFolder(ctx, user, args.channelFolderId, args)),
  }),
  reorderChannelFolders: t.boolean({
    description: 'Sets the order of the organization\'s channel folders (administrators).',
    args: {
      order: t.arg.intList({ required: true, description: 'Every folder\'s ID (archived ones included), each once, in the new order.' }),
    },
    resolve: userAction((ctx, user, args) => reorderChannelFolders(ctx, user, args.order)),
  }),
}));
