// User administration (update, deactivate, reactivate) and custom profile fields.
import type { Route } from '../route.ts';
import { snakeKeys } from '../route.ts';
// Only the list's shape is checked here (it arrives as JSON); every rule about the values is the domain's.
import { parseProfileData } from '../../resolvers/users/profile-data.ts';

const FIELD_KEYS = 'id name hint type fieldData order displayInProfileSummary required editableByUser';

/** Zulip lists `display_in_profile_summary` only when true. */
function fieldShape(f: Record<string, unknown>): Record<string, unknown> {
  const { display_in_profile_summary: summary, ...rest } = snakeKeys<Record<string, unknown>>(f);
  return summary ? { ...rest, display_in_profile_summary: true } : rest;
}

export const userAdminRoutes: Route[] = [
  {
    method: 'PATCH', path: '/users/{user_id}',
    params: {
      user_id: { type: 'int', in: 'path', required: true },
      full_name: { type: 'string' },
      role: { type: 'int' },
      profile_data: { type: 'json' },
      new_email: { type: 'string' },
    },
    document: `mutation($userId: Int!, $fullName: String, $role: Int, $profileData: [ProfileDataInput!], $newEmail: String) { updateUser(userId: $userId, fullName: $fullName, role: $role, profileData: $profileData, newEmail: $newEmail) }`,
    variables: (p) => ({ userId: p.user_id, fullName: p.full_name ?? null, role: p.role ?? null, profileData: p.profile_data == null ? null : parseProfileData(p.profile_data, 'profile_data'), newEmail: p.new_email ?? null }),
  },
  {
    method: 'DELETE', path: '/users/{user_id}',
    params: { user_id: { type: 'int', in: 'path', required: true }, deactivation_notification_comment: { type: 'string' } },
    document: `mutation($userId: Int!) { deactivateUser(userId: $userId) }`,
    variables: (p) => ({ userId: p.user_id }),
  },
  {
    method: 'DELETE', path: '/users/me', params: {},
    document: `mutation { deactivateOwnAccount }`,
  },
  {
    method: 'POST', path: '/users/{user_id}/reactivate',
    params: { user_id: { type: 'int', in: 'path', required: true } },
    document: `mutation($userId: Int!) { reactivateUser(userId: $userId) }`,
  },
  {
    method: 'PATCH', path: '/users/me/profile_data',
    params: { data: { type: 'json', required: true } },
    document: `mutation($data: [ProfileDataInput!]!) { updateOwnProfileData(data: $data) }`,
    variables: (p) => ({ data: parseProfileData(p.data, 'data') }),
  },
  {
    method: 'DELETE', path: '/users/me/profile_data',
    params: { data: { type: 'intList', required: true } },
    document: `mutation($fieldIds: [Int!]!) { removeOwnProfileData(fieldIds: $fieldIds) }`,
    variables: (p) => ({ fieldIds: p.data }),
  },
  {
    method: 'GET', path: '/realm/profile_fields', params: {},
    document: `query { customProfileFields { ${FIELD_KEYS} } }`,
    shape: (d) => ({ custom_fields: d.customProfileFields.map(fieldShape) }),
  },
  {
    method: 'POST', path: '/realm/profile_fields',
    params: {
      name: { type: 'string', default: '' },
      hint: { type: 'string', default: '' },
      field_type: { type: 'int', required: true },
      field_data: { type: 'json' },
      display_in_profile_summary: { type: 'bool', default: false },
      required: { type: 'bool', default: false },
      editable_by_user: { type: 'bool', default: true },
    },
    document: `mutation($name: String, $hint: String, $fieldType: Int!, $fieldData: JSON, $displayInProfileSummary: Boolean, $required: Boolean, $editableByUser: Boolean) { createCustomProfileField(name: $name, hint: $hint, fieldType: $fieldType, fieldData: $fieldData, displayInProfileSummary: $displayInProfileSummary, required: $required, editableByUser: $editableByUser) }`,
    variables: (p) => ({
      name: p.name, hint: p.hint, fieldType: p.field_type, fieldData: p.field_data ?? null,
      displayInProfileSummary: p.display_in_profile_summary, required: p.required, editableByUser: p.editable_by_user,
    }),
    shape: (d) => ({ id: d.createCustomProfileField }),
  },
  {
    method: 'PATCH', path: '/realm/profile_fields',
    params: { order: { type: 'intList', required: true } },
    document: `mutation($order: [Int!]!) { reorderCustomProfileFields(order: $order) }`,
  },
  {
    method: 'PATCH', path: '/realm/profile_fields/{field_id}',
    params: {
      field_id: { type: 'int', in: 'path', required: true },
      name: { type: 'string' },
      hint: { type: 'string' },
      field_data: { type: 'json' },
      display_in_profile_summary: { type: 'bool' },
      required: { type: 'bool' },
      editable_by_user: { type: 'bool' },
    },
    document: `mutation($fieldId: Int!, $name: String, $hint: String, $fieldData: JSON, $displayInProfileSummary: Boolean, $required: Boolean, $editableByUser: Boolean) { updateCustomProfileField(fieldId: $fieldId, name: $name, hint: $hint, fieldData: $fieldData, displayInProfileSummary: $displayInProfileSummary, required: $required, editableByUser: $editableByUser) }`,
    variables: (p) => ({
      fieldId: p.field_id, name: p.name ?? null, hint: p.hint ?? null, fieldData: p.field_data ?? null,
      displayInProfileSummary: p.display_in_profile_summary ?? null, required: p.required ?? null, editableByUser: p.editable_by_user ?? null,
    }),
  },
  {
    method: 'DELETE', path: '/realm/profile_fields/{field_id}',
    params: { field_id: { type: 'int', in: 'path', required: true } },
    document: `mutation($fieldId: Int!) { deleteCustomProfileField(fieldId: $fieldId) }`,
  },
];
