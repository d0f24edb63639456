// User groups for the register response, from the realm's GroupIndex (groups/group-index.ts).
import type { InitialState, Json } from './state.ts';

/**
 * `realm_user_groups`: the realm's named groups, system groups included, by ID. Anonymous groups
 * (the explicit sets behind settings) are never listed; deactivated groups only for clients with
 * the `include_deactivated_groups` capability.
 */
export async function userGroupsState(s: InitialState): Promise<Json> {
  if (!s.want('realm_user_groups')) return {};
  const index = await s.groups();
  const withDeactivated = s.capability('include_deactivated_groups');
  const groups = [...index.groups.values()]
    .filter((g) => g.name !== null && (withDeactivated || !g.deactivated))
    .map((g) => index.apiGroup(g));
  return { realm_user_groups: groups };
}
