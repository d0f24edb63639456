// User administration (update, deactivate, reactivate) and custom profile fields.
import type { Route } from '../route.ts';
import { snakeKeys } from '../route.ts';
// Checks the list's shape with Zulip's wording before GraphQL's coercion would; the values' rules are the domain's.
import { parseProfileData } from '../../resolvers/users/profile-data.ts';

/** Zulip lists `display_in_profile_summary` only when true. */
function fieldShape(f: Record<string, unknown>): Record<string, unknown> {
  const { display_in_profile_summary: summary, ...rest } = snakeKeys<Record<string, unknown>>(f);
  return summary ? { ...rest, display_in_profile_summary: true } : rest;
}

export const userAdminRoutes: Route[] = [
  {
    method: 'PATCH', path: '/users/{user_id}', field: 'updateUser',
    params: { profile_data: { convert: (v) => parseProfileData(v, 'profile_data') } },
  },
  { method: 'DELETE', path: '/users/{user_id}', field: 'deactivateUser' },
  { method: 'DELETE', path: '/users/me', field: 'deactivateOwnAccount' },
  { method: 'POST', path: '/users/{user_id}/reactivate', field: 'reactivateUser' },
  {
    method: 'PATCH', path: '/users/me/profile_data', field: 'updateOwnProfileData',
    params: { data: { convert: (v) => parseProfileData(v, 'data') } },
  },
  { method: 'DELETE', path: '/users/me/profile_data', field: 'removeOwnProfileData', params: { data: { arg: 'fieldIds' } } },
  {
    method: 'GET', path: '/realm/profile_fields', field: 'customProfileFields',
    select: 'id name hint type fieldData order displayInProfileSummary required editableByUser',
    shape: (fields) => ({ custom_fields: fields.map(fieldShape) }),
  },
  { method: 'POST', path: '/realm/profile_fields', field: 'createCustomProfileField', shape: (id) => ({ id }) },
  { method: 'PATCH', path: '/realm/profile_fields', field: 'reorderCustomProfileFields' },
  { method: 'PATCH', path: '/realm/profile_fields/{field_id}', field: 'updateCustomProfileField' },
  { method: 'DELETE', path: '/realm/profile_fields/{field_id}', field: 'deleteCustomProfileField' },
];
