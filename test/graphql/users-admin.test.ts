// User administration and custom profile fields through /graphql: the operations PATCH and DELETE
// /users/{user_id}, DELETE /users/me, POST /users/{user_id}/reactivate and /realm/profile_fields run,
// with the same rules.
import { describe, expect, it } from 'vitest';
import { makeChannel, makeUser } from '../support/factories.ts';
import type { Credentials } from '../support/client.ts';
import { fails, ok } from './helpers.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer();
const { admin, moderator, member, guest } = useTeam(t, ['admin', 'moderator', 'member', 'guest']);

const UPDATE = `mutation($id: Int!, $name: String, $role: Int, $data: [ProfileDataInput!], $email: String) {
  updateUser(userId: $id, fullName: $name, role: $role, profileData: $data, newEmail: $email) }`;
const DEACTIVATE = 'mutation($id: Int!) { deactivateUser(userId: $id) }';
const REACTIVATE = 'mutation($id: Int!) { reactivateUser(userId: $id) }';
const CREATE_FIELD = `mutation($name: String, $type: Int!, $data: JSON, $summary: Boolean, $editable: Boolean) {
  createCustomProfileField(name: $name, fieldType: $type, fieldData: $data, displayInProfileSummary: $summary, editableByUser: $editable) }`;
const FIELDS = '{ customProfileFields { id name hint type fieldData order displayInProfileSummary required editableByUser } }';
const PROFILE = 'query($id: Int!) { user(userId: $id) { profileData } }';

/** Zulip's role requirements (OrganizationAdministratorRequiredError, ...) answer UNAUTHORIZED_PRINCIPAL. */
const roleCode = (message: string) => (/^Must be an organization (administrator|owner)$/.test(message) ? 'UNAUTHORIZED_PRINCIPAL' : 'BAD_REQUEST');

async function expectRefused(query: string, variables: Record<string, unknown>, as: Credentials, message: string, code = roleCode(message)) {
  const { error } = await fails(t, query, variables, as);
  expect(error.message).toBe(message);
  expect(error.extensions).toMatchObject({ code, httpStatus: 400 });
  return error;
}

const roleOf = async (userId: number) => (await t.db.user.findUniqueOrThrow({ where: { id: userId } })).role;

describe('updateUser', () => {
  it('renames and changes roles for administrators', async () => {
    const target = await makeUser(t, { fullName: 'Before' });
    expect((await ok(t, UPDATE, { id: target.userId, name: 'After', role: 300 }, admin)).updateUser).toBe(true);
    const data = await ok(t, 'query($id: Int!) { user(userId: $id) { fullName role } }', { id: target.userId }, member);
    expect(data.user).toEqual({ fullName: 'After', role: 300 });
  });

  it.each([
    ['moderator', () => moderator],
    ['member', () => member],
    ['guest', () => guest],
  ])('refuses a %s', async (_label, who) => {
    await expectRefused(UPDATE, { id: member.userId, role: 300 }, who(), 'Must be an organization administrator');
    expect(await roleOf(member.userId)).toBe(400);
  });

  it('keeps the owner role for owners to give and take, and on the only owner', async () => {
    const target = await makeUser(t);
    await expectRefused(UPDATE, { id: target.userId, role: 100 }, admin, 'Must be an organization owner');
    await expectRefused(UPDATE, { id: t.owner.userId, role: 400 }, admin, 'Must be an organization owner');
    await expectRefused(UPDATE, { id: t.owner.userId, role: 200 }, t.owner, 'The owner permission cannot be removed from the only organization owner.');
    expect(await roleOf(t.owner.userId)).toBe(100);
    await ok(t, UPDATE, { id: target.userId, role: 100 }, t.owner);
    expect(await roleOf(target.userId)).toBe(100);
    await ok(t, UPDATE, { id: target.userId, role: 400 }, t.owner);
  });

  it('refuses a guest made administrator, unknown roles and unknown users', async () => {
    await expectRefused(UPDATE, { id: guest.userId, role: 200 }, t.owner, 'Guests cannot be organization administrators');
    await expectRefused(UPDATE, { id: guest.userId, role: 7 }, t.owner, 'Invalid role');
    await expectRefused(UPDATE, { id: 999999, name: 'X' }, t.owner, 'No such user');
    expect(await roleOf(guest.userId)).toBe(600);
  });

  it('changes email only for owners with can_change_user_emails', async () => {
    const target = await makeUser(t);
    await expectRefused(UPDATE, { id: target.userId, email: 'gql-new@example.com' }, t.owner, 'User not authorized to change user emails');
    // Written directly: can_change_user_emails is a server administrator's grant (Zulip's manage.py), not in the API.
    await t.db.user.update({ where: { id: t.owner.userId }, data: { canChangeUserEmails: true } });
    try {
      await ok(t, UPDATE, { id: target.userId, email: 'gql-new@example.com' }, t.owner);
      expect((await t.db.user.findUniqueOrThrow({ where: { id: target.userId } })).deliveryEmail).toBe('gql-new@example.com');
    } finally {
      await t.db.user.update({ where: { id: t.owner.userId }, data: { canChangeUserEmails: false } });
    }
  });
});

describe('custom profile fields', () => {
  let text: number;
  let choice: number;
  let locked: number;

  it('are created, listed, changed, reordered and deleted by administrators', async () => {
    text = (await ok(t, CREATE_FIELD, { name: 'Team', type: 1 }, admin)).createCustomProfileField;
    choice = (await ok(t, CREATE_FIELD, { name: 'Shift', type: 3, data: { day: { text: 'Day', order: '1' }, night: { text: 'Night', order: '2' } }, summary: true }, admin)).createCustomProfileField;
    locked = (await ok(t, CREATE_FIELD, { name: 'Badge', type: 1, editable: false }, t.owner)).createCustomProfileField;
    let fields = (await ok(t, FIELDS, {}, guest)).customProfileFields;
    expect(fields.map((f: any) => f.id)).toEqual([text, choice, locked]);
    expect(fields[1]).toMatchObject({ name: 'Shift', type: 3, displayInProfileSummary: true, editableByUser: true });
    expect(fields[2].editableByUser).toBe(false);

    await ok(t, 'mutation($id: Int!) { updateCustomProfileField(fieldId: $id, hint: "Your team", required: true) }', { id: text }, admin);
    await ok(t, 'mutation($o: [Int!]!) { reorderCustomProfileFields(order: $o) }', { o: [locked, choice, text] }, admin);
    fields = (await ok(t, FIELDS, {}, member)).customProfileFields;
    expect(fields.map((f: any) => f.id)).toEqual([locked, choice, text]);
    expect(fields[2]).toMatchObject({ hint: 'Your team', required: true });

    const extra = (await ok(t, CREATE_FIELD, { name: 'Temporary', type: 1 }, admin)).createCustomProfileField;
    await ok(t, 'mutation($id: Int!) { deleteCustomProfileField(fieldId: $id) }', { id: extra }, admin);
    expect((await ok(t, FIELDS, {}, member)).customProfileFields.map((f: any) => f.id)).not.toContain(extra);
  });

  it('refuse non-administrators and invalid definitions', async () => {
    await expectRefused(CREATE_FIELD, { name: 'Nope', type: 1 }, moderator, 'Must be an organization administrator');
    await expectRefused('mutation($id: Int!) { deleteCustomProfileField(fieldId: $id) }', { id: text }, member, 'Must be an organization administrator');
    await expectRefused('mutation($o: [Int!]!) { reorderCustomProfileFields(order: $o) }', { o: [text] }, admin, 'Invalid order mapping.');
    await expectRefused(CREATE_FIELD, { name: 'Team', type: 1 }, admin, 'A field with that label already exists.');
    await expectRefused('mutation($id: Int!) { updateCustomProfileField(fieldId: $id, name: "X") }', { id: 999999 }, admin, 'Field id 999999 not found.');
  });

  it('hold values users set on their own editable fields', async () => {
    await ok(t, 'mutation($d: [ProfileDataInput!]!) { updateOwnProfileData(data: $d) }', { d: [{ id: text, value: 'Platform' }, { id: choice, value: 'night' }] }, member);
    const profile = (await ok(t, PROFILE, { id: member.userId }, guest)).user.profileData;
    expect(profile[String(text)]).toEqual({ value: 'Platform', rendered_value: '<p>Platform</p>' });
    expect(profile[String(choice)]).toEqual({ value: 'night' });

    await expectRefused('mutation($d: [ProfileDataInput!]!) { updateOwnProfileData(data: $d) }', { d: [{ id: locked, value: 'B-1' }] }, member,
      'You are not allowed to change this field. Contact an administrator to update it.');
    await expectRefused('mutation($d: [ProfileDataInput!]!) { updateOwnProfileData(data: $d) }', { d: [{ id: choice, value: 'evening' }] }, member,
      "'evening' is not a valid choice for 'Shift'.");

    await ok(t, 'mutation($ids: [Int!]!) { removeOwnProfileData(fieldIds: $ids) }', { ids: [choice] }, member);
    expect((await ok(t, PROFILE, { id: member.userId }, guest)).user.profileData[String(choice)]).toBeUndefined();
  });

  it('are set for others by administrators, locked fields included', async () => {
    await ok(t, UPDATE, { id: member.userId, data: [{ id: locked, value: 'B-42' }, { id: text, value: null }] }, admin);
    const profile = (await ok(t, PROFILE, { id: member.userId }, member)).user.profileData;
    expect(profile[String(locked)].value).toBe('B-42');
    expect(profile[String(text)]).toBeUndefined();
  });
});

describe('deactivateUser, deactivateOwnAccount and reactivateUser', () => {
  it('deactivate and reactivate, with subscriptions following', async () => {
    const target = await makeUser(t, { fullName: 'In And Out' });
    const channelId = await makeChannel(t.client(member), 'gql-door', { principals: [member.userId, target.userId] });
    const subscribers = async () => (await ok(t, '{ subscriptions { channel { streamId } subscribers } }', {}, member)).subscriptions
      .find((s: any) => s.channel.streamId === channelId).subscribers as number[];
    expect(await subscribers()).toContain(target.userId);

    await expectRefused(DEACTIVATE, { id: target.userId }, moderator, 'Must be an organization administrator');
    expect((await ok(t, DEACTIVATE, { id: target.userId }, admin)).deactivateUser).toBe(true);
    const { error } = await fails(t, '{ me { userId } }', {}, target);
    expect(error.extensions).toMatchObject({ code: 'USER_DEACTIVATED', httpStatus: 401 });
    expect(await subscribers()).not.toContain(target.userId);
    expect((await ok(t, 'query($id: Int!) { user(userId: $id) { isActive } }', { id: target.userId }, member)).user.isActive).toBe(false);

    await expectRefused(DEACTIVATE, { id: target.userId }, admin, 'User is deactivated');
    await expectRefused(REACTIVATE, { id: target.userId }, member, 'Must be an organization administrator');
    await ok(t, REACTIVATE, { id: target.userId }, admin);
    expect((await ok(t, '{ me { userId } }', {}, target)).me.userId).toBe(target.userId);
    expect(await subscribers()).toContain(target.userId);
    await expectRefused(REACTIVATE, { id: target.userId }, admin, 'User is already active');
  });

  it('protect owners from administrators and the only owner from everyone', async () => {
    await expectRefused(DEACTIVATE, { id: t.owner.userId }, admin, 'Must be an organization owner');
    await expectRefused(DEACTIVATE, { id: t.owner.userId }, t.owner, 'Cannot deactivate the only organization owner');
    const error = await expectRefused('mutation { deactivateOwnAccount }', {}, t.owner, 'Cannot deactivate the only organization owner', 'CANNOT_DEACTIVATE_LAST_USER');
    expect(error.extensions?.zulip).toEqual({ is_last_owner: true, entity: 'organization owner' });
    expect((await t.db.user.findUniqueOrThrow({ where: { id: t.owner.userId } })).isActive).toBe(true);
  });

  it('let users deactivate themselves', async () => {
    const target = await makeUser(t);
    expect((await ok(t, 'mutation { deactivateOwnAccount }', {}, target)).deactivateOwnAccount).toBe(true);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: target.userId } })).isActive).toBe(false);
  });
});
