import { builder } from './builder.ts';
import type { RegisterResult } from '../resolvers/events/register.ts';

export const RegisterResultType = builder.objectRef<RegisterResult>('EventQueueRegistration').implement({
  description: 'A new event queue and the state to start from (Zulip\'s POST /register).',
  fields: (t) => ({
    queueId: t.exposeString('queueId', { description: 'The queue to poll or subscribe to.' }),
    lastEventId: t.exposeInt('lastEventId', { description: 'Ask for events after this ID.' }),
    idleQueueTimeoutSecs: t.exposeInt('idleQueueTimeoutSecs', { description: 'The queue is collected after this many seconds without a poll.' }),
    state: t.field({ type: 'JSON', description: 'The initial data, keyed as in Zulip\'s register response.', resolve: (r) => r.state }),
  }),
});
