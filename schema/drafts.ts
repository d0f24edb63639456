import { builder } from './builder.ts';
import type { DraftWire } from '../resolvers/drafts/drafts.ts';

export const DraftType = builder.objectRef<DraftWire>('Draft').implement({
  description: 'A message draft, kept in step across the viewer\'s clients.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The draft ID.' }),
    type: t.exposeString('type', { description: '"stream" (a channel message), "private" (a direct message) or "" (no recipient yet).' }),
    to: t.exposeIntList('to', { description: 'The channel ID (channel drafts), or the other participants\' user IDs (the viewer\'s own for a note to self).' }),
    topic: t.exposeString('topic', { description: 'The topic of a channel draft; "" otherwise.' }),
    content: t.exposeString('content', { description: 'The Markdown being drafted.' }),
    timestamp: t.exposeInt('timestamp', { description: 'When it was last edited (Unix seconds).' }),
  }),
});

export const DraftInputType = builder.inputType('DraftInput', {
  description: 'A draft as a client sends it (Zulip\'s DraftData).',
  fields: (t) => ({
    type: t.string({ required: true, description: '"stream", "private" or "" (no recipient yet).' }),
    to: t.intList({ required: true, description: 'Exactly one channel ID for "stream"; user IDs for "private" (an empty list makes it unaddressed); ignored for "".' }),
    topic: t.string({ required: true, description: 'The topic of a channel draft (truncated to 60 characters); ignored otherwise.' }),
    content: t.string({ required: true, description: 'The Markdown being drafted (not empty).' }),
    timestamp: t.float({ description: 'When it was last edited (Unix seconds, not negative); default: now.' }),
  }),
});

export interface MutedUserShape {
  id: number;
  timestamp: number;
}

export const MutedUserType = builder.objectRef<MutedUserShape>('MutedUser').implement({
  description: 'A user the viewer muted: their messages arrive already read, their typing is not shown.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The muted user\'s ID.' }),
    timestamp: t.exposeInt('timestamp', { description: 'When they were muted (Unix seconds).' }),
  }),
});
