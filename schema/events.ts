import { Kind } from 'graphql';
import { builder } from './builder.ts';
import { BadRequestError } from '../resolvers/errors.ts';
import type { RegisterResult } from '../resolvers/events/register.ts';

/**
 * Zulip's `idle_queue_timeout` (feature level 481): a number of seconds, or the string `"mobile"`.
 * One scalar rather than two arguments, so the REST parameter is the argument (decoded as JSON).
 */
export const IdleQueueTimeout = builder.scalarType('IdleQueueTimeout', {
  description: 'How long an idle event queue is kept: seconds (an integer), or `"mobile"` (12 hours, for mobile apps that come back to their queue a few times a day).',
  serialize: (value) => value,
  parseValue: (value) => {
    if (value === 'mobile' || (typeof value === 'number' && Number.isSafeInteger(value))) return value;
    throw new BadRequestError('Invalid idle_queue_timeout');
  },
  parseLiteral: (node) => {
    if (node.kind === Kind.INT) return Number(node.value);
    if (node.kind === Kind.STRING && node.value === 'mobile') return 'mobile';
    throw new BadRequestError('Invalid idle_queue_timeout');
  },
});

export const RegisterResultType = builder.objectRef<RegisterResult>('EventQueueRegistration').implement({
  description: 'A new event queue and the state to start from (Zulip\'s POST /register).',
  fields: (t) => ({
    queueId: t.exposeString('queueId', { description: 'The queue to poll or subscribe to.' }),
    lastEventId: t.exposeInt('lastEventId', { description: 'Ask for events after this ID.' }),
    idleQueueTimeoutSecs: t.exposeInt('idleQueueTimeoutSecs', { description: 'The queue is collected after this many seconds without a poll.' }),
    state: t.field({ type: 'JSON', description: 'The initial data, keyed as in Zulip\'s register response.', resolve: (r) => r.state }),
  }),
});
