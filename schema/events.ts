import { builder } from './builder.ts';
import type { RegisterResult } from '../resolvers/events/register.ts';

export const IdleQueueTimeoutPreset = builder.enumType('IdleQueueTimeoutPreset', {
  description: 'Named idle timeouts for registerEventQueue (Zulip\'s string values of `idle_queue_timeout`).',
  values: {
    MOBILE: { value: 'mobile', description: 'Zulip\'s `"mobile"`: 12 hours, for mobile apps that come back to their queue a few times a day.' },
  } as const,
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
