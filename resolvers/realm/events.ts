// Organization events: `realm` (setting changes) and `realm_domains`.
export type RealmEvent =
  | { type: 'realm'; op: 'update'; property: string; value: unknown; extra_data?: Record<string, unknown> }
  | { type: 'realm'; op: 'update_dict'; property: string; data: Record<string, unknown> }
  | { type: 'realm'; op: 'deactivated'; realm_id: number };

export type RealmDomainsEvent =
  | { type: 'realm_domains'; op: 'add' | 'change'; realm_domain: { domain: string; allow_subdomains: boolean } }
  | { type: 'realm_domains'; op: 'remove'; domain: string };

declare module '../events/kinds.ts' {
  interface EventKinds {
    realm: RealmEvent;
    realm_domains: RealmDomainsEvent;
  }
}
