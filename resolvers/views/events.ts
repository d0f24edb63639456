// `navigation_view` events, to the owner's queues.
export type NavigationViewEvent =
  | { type: 'navigation_view'; op: 'add'; navigation_view: Record<string, unknown> }
  | { type: 'navigation_view'; op: 'update'; fragment: string; data: Record<string, unknown> }
  | { type: 'navigation_view'; op: 'remove'; fragment: string };

declare module '../events/kinds.ts' {
  interface EventKinds {
    navigation_view: NavigationViewEvent;
  }
}
