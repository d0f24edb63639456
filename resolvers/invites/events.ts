// Invitation events: `invites_changed` tells administrators and the inviter to fetch GET /invites again.
export interface InvitesChangedEvent {
  type: 'invites_changed';
}

declare module '../events/kinds.ts' {
  interface EventKinds {
    invites_changed: InvitesChangedEvent;
  }
}
