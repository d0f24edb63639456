// GraphQL field for reporting a message to the moderators.
import { builder } from '../../schema/builder.ts';
import { userAction } from '../../schema/fields.ts';
import { reportMessage } from './report.ts';

builder.mutationFields((t) => ({
  reportMessage: t.boolean({
    description: 'Reports a message the viewer can read to the organization\'s moderation request channel.',
    args: {
      messageId: t.arg.int({ required: true, description: 'The message reported.' }),
      reportType: t.arg.string({ required: true, description: 'One of the keys of `server_report_message_types` (spam, harassment, inappropriate, norms, other).' }),
      description: t.arg.string({ description: 'An explanation, at most 1000 characters; required for `other`.' }),
    },
    resolve: userAction(reportMessage),
  }),
}));
