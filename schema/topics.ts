// Types of the topics area: topic summaries and the result of a narrow-based flag update.
import { builder } from './builder.ts';
import type { TopicSummary } from '../resolvers/topics/list.ts';
import type { FlagsNarrowResult } from '../resolvers/topics/flags-narrow.ts';

export const TopicType = builder.objectRef<TopicSummary>('Topic').implement({
  description: 'A topic of a channel, as the viewer may read it.',
  fields: (t) => ({
    maxId: t.exposeInt('maxId', { description: 'ID of the newest message in the topic the viewer may read.' }),
    name: t.exposeString('name', { description: 'The topic name (its latest message\'s spelling); the empty topic appears as its display name unless allowed.' }),
  }),
});

export const FlagsNarrowResultType = builder.objectRef<FlagsNarrowResult>('FlagsNarrowResult').implement({
  description: 'What a narrow-based flag update did.',
  fields: (t) => ({
    processedCount: t.exposeInt('processedCount', { description: 'Messages in the window.' }),
    updatedCount: t.exposeInt('updatedCount', { description: 'Messages whose flag actually changed.' }),
    firstProcessedId: t.exposeInt('firstProcessedId', { nullable: true, description: 'The oldest message in the window; null when it was empty.' }),
    lastProcessedId: t.exposeInt('lastProcessedId', { nullable: true, description: 'The newest message in the window; null when it was empty.' }),
    foundOldest: t.exposeBoolean('foundOldest', { description: 'The window reached the oldest matching message.' }),
    foundNewest: t.exposeBoolean('foundNewest', { description: 'The window reached the newest matching message.' }),
  }),
});
