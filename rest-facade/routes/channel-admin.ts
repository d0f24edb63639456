// Channel administration: settings updates and archiving.
import type { Route } from '../route.ts';
import { InvalidArgumentError } from '../../resolvers/errors.ts';

const GROUP_SETTINGS = [
  'can_add_subscribers_group', 'can_remove_subscribers_group', 'can_administer_channel_group', 'can_delete_any_message_group',
  'can_delete_own_message_group', 'can_move_messages_out_of_channel_group', 'can_move_messages_within_channel_group',
  'can_resolve_topics_group', 'can_send_message_group', 'can_subscribe_group',
];
const camel = (name: string) => name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

export const channelAdminRoutes: Route[] = [
  {
    method: 'PATCH', path: '/streams/{stream_id}',
    params: {
      stream_id: { type: 'int', in: 'path', required: true },
      new_name: { type: 'string' },
      description: { type: 'string' },
      is_private: { type: 'bool' },
      is_web_public: { type: 'bool' },
      history_public_to_subscribers: { type: 'bool' },
      is_default_stream: { type: 'bool' },
      message_retention_days: { type: 'jsonOrString' },
      topics_policy: { type: 'string' },
      folder_id: { type: 'json' },
      is_archived: { type: 'bool' },
      ...Object.fromEntries(GROUP_SETTINGS.map((name) => [name, { type: 'json' as const }])),
    },
    document: `mutation($streamId: Int!, $newName: String, $description: String, $isPrivate: Boolean, $isWebPublic: Boolean, $historyPublicToSubscribers: Boolean, $isDefaultStream: Boolean, $messageRetentionDays: JSON, $topicsPolicy: String, $folderId: Int, $isArchived: Boolean, ${GROUP_SETTINGS.map((n) => `$${camel(n)}: JSON`).join(', ')}) {
      updateChannel(channelId: $streamId, newName: $newName, description: $description, isPrivate: $isPrivate, isWebPublic: $isWebPublic, historyPublicToSubscribers: $historyPublicToSubscribers, isDefaultStream: $isDefaultStream, messageRetentionDays: $messageRetentionDays, topicsPolicy: $topicsPolicy, folderId: $folderId, isArchived: $isArchived, ${GROUP_SETTINGS.map((n) => `${camel(n)}: $${camel(n)}`).join(', ')}) }`,
    variables: (p) => {
      const vars: Record<string, unknown> = {
        streamId: p.stream_id, newName: p.new_name, description: p.description, isPrivate: p.is_private, isWebPublic: p.is_web_public,
        historyPublicToSubscribers: p.history_public_to_subscribers, isDefaultStream: p.is_default_stream,
        messageRetentionDays: p.message_retention_days, topicsPolicy: p.topics_policy, isArchived: p.is_archived,
      };
      if (p.folder_id !== undefined) {
        // Zulip's folder_id is a JSON integer or null (null: no folder).
        if (p.folder_id !== null && !(Number.isSafeInteger(p.folder_id) && Math.abs(p.folder_id) <= 2_147_483_647)) {
          throw new InvalidArgumentError('folder_id', 'folder_id is not an integer');
        }
        vars.folderId = p.folder_id;
      }
      for (const name of GROUP_SETTINGS) if (p[name] !== undefined) vars[camel(name)] = p[name];
      for (const key of Object.keys(vars)) if (vars[key] === undefined) delete vars[key];
      return vars;
    },
  },
  {
    method: 'DELETE', path: '/streams/{stream_id}',
    params: { stream_id: { type: 'int', in: 'path', required: true } },
    document: `mutation($streamId: Int!) { archiveChannel(channelId: $streamId) }`,
  },
];
