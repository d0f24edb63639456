// `saved_snippets` events, to the owner's queues.
export type SavedSnippetsEvent =
  | { type: 'saved_snippets'; op: 'add' | 'update'; saved_snippet: Record<string, unknown> }
  | { type: 'saved_snippets'; op: 'remove'; saved_snippet_id: number };

declare module '../events/kinds.ts' {
  interface EventKinds {
    saved_snippets: SavedSnippetsEvent;
  }
}
