import { builder } from '../../schema/builder.ts';
import { userAction } from '../../schema/fields.ts';
import { notifyTyping } from './notify.ts';
import { notifyEditTyping } from './edit-notify.ts';
// The area's event kinds, and how each queue sees them.
import './events.ts';

builder.mutationFields((t) => ({
  setTypingStatus: t.boolean({
    description: 'Tells the other participants that the viewer started or stopped composing (Zulip\'s POST /typing). The server keeps no typing state.',
    args: {
      type: t.arg.string({ description: '`direct` (default), `stream` or `channel`.' }),
      op: t.arg.string({ required: true, description: '`start` or `stop`.' }),
      to: t.arg.intList({ description: 'Recipient user IDs, for direct messages.' }),
      streamId: t.arg.int({ description: 'The channel, for channel messages.' }),
      topic: t.arg.string({ description: 'The topic, for channel messages; "(no topic)" means the empty topic.' }),
    },
    resolve: userAction(notifyTyping),
  }),
  setEditTypingStatus: t.boolean({
    description: 'Tells whoever would see the edit that the viewer started or stopped editing a message\'s content (Zulip\'s POST /messages/{message_id}/typing): `typing_edit_message` events. Only for messages the viewer may edit.',
    args: {
      messageId: t.arg.int({ required: true, description: 'The message being edited.' }),
      op: t.arg.string({ required: true, description: '`start` or `stop`.' }),
    },
    resolve: userAction((ctx, user, args) => notifyEditTyping(ctx, user, args.messageId, args.op)),
  }),
}));
