import { describe, expect, it } from 'vitest';
import { makeBot, makeUser } from '../support/factories.ts';
import type { ApiClient } from '../support/client.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer();
const owner = t.ownerClient;
const { admin, moderator, member, guest } = useTeam(t, ['admin', 'moderator', 'member', 'guest']);

const SELECT_DATA = { vim: { text: 'Vim', order: '1' }, emacs: { text: 'Emacs', order: '2' } };

const register = async (client: ApiClient) => (await registerQueue(client, { event_types: ['realm_user', 'custom_profile_fields'], fetch_event_types: ['realm'] })).queue_id;

function expectError(res: { status: number; body: any }, msg: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  // Zulip's role requirements (OrganizationAdministratorRequiredError) answer UNAUTHORIZED_PRINCIPAL.
  const code = msg === 'Must be an organization administrator' ? 'UNAUTHORIZED_PRINCIPAL' : 'BAD_REQUEST';
  expect(res.body).toMatchObject({ result: 'error', msg, code });
}

async function createField(params: Record<string, unknown>): Promise<number> {
  const res = await owner.post('/realm/profile_fields', params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id;
}

async function fieldCount(): Promise<number> {
  return t.db.customProfileField.count({ where: { realm: { users: { some: { id: member.userId } } } } });
}

async function profileOf(userId: number, viewer: ApiClient = t.client(member)) {
  const res = await viewer.get(`/users/${userId}`, { include_custom_profile_fields: true });
  expect(res.status).toBe(200);
  return res.body.user.profile_data as Record<string, { value: string; rendered_value?: string }>;
}

let shortText: number;
let longText: number;
let select: number;
let date: number;
let url: number;
let users: number;
let github: number;
let pronouns: number;
let locked: number;

describe('POST /realm/profile_fields', () => {
  it('creates fields of every type, each last in order, and tells everyone', async () => {
    const queue = await register(t.client(guest));
    shortText = await createField({ name: 'Phone', hint: 'Work phone', field_type: 1, required: true });
    longText = await createField({ name: 'Biography', field_type: 2 });
    select = await createField({ name: 'Editor', field_type: 3, field_data: SELECT_DATA, display_in_profile_summary: true });
    date = await createField({ name: 'Birthday', field_type: 4 });
    url = await createField({ name: 'Website', field_type: 5, display_in_profile_summary: true });
    users = await createField({ name: 'Mentor', field_type: 6 });
    github = await createField({ field_type: 7, field_data: { subtype: 'github' } });
    pronouns = await createField({ name: 'Pronouns', field_type: 8 });
    locked = await createField({ name: 'Employee ID', field_type: 1, editable_by_user: false });

    const list = await t.client(member).get('/realm/profile_fields');
    expect(list.status).toBe(200);
    expect(list.body.custom_fields.map((f: any) => f.id)).toEqual([shortText, longText, select, date, url, users, github, pronouns, locked]);
    expect(list.body.custom_fields[0]).toEqual({
      id: shortText, name: 'Phone', type: 1, hint: 'Work phone', field_data: '', order: shortText, required: true, editable_by_user: true,
    });
    const editor = list.body.custom_fields.find((f: any) => f.id === select);
    expect(JSON.parse(editor.field_data)).toEqual(SELECT_DATA);
    expect(editor.display_in_profile_summary).toBe(true);
    // Built-in external accounts take their label and hint from Zulip's list.
    expect(list.body.custom_fields.find((f: any) => f.id === github)).toMatchObject({ name: 'GitHub', hint: 'Enter your GitHub username' });
    expect(list.body.custom_fields.find((f: any) => f.id === locked).editable_by_user).toBe(false);

    const events = await allEvents(t.client(guest), queue);
    expect(events).toHaveLength(9);
    expect(events.every((e) => e.type === 'custom_profile_fields')).toBe(true);
    expect(events.at(-1)!.fields.map((f: any) => f.id)).toEqual(list.body.custom_fields.map((f: any) => f.id));
  });

  it.each([
    ['a moderator', () => moderator],
    ['a member', () => member],
    ['a guest', () => guest],
  ])('refuses %s', async (_label, who) => {
    const before = await fieldCount();
    expectError(await t.client(who()).post('/realm/profile_fields', { name: 'Sneaky', field_type: 1 }), 'Must be an organization administrator');
    expect(await fieldCount()).toBe(before);
  });

  it('lets administrators create fields', async () => {
    const res = await t.client(admin).post('/realm/profile_fields', { name: 'Team', field_type: 1 });
    expect(res.status).toBe(200);
    expect((await t.client(admin).delete(`/realm/profile_fields/${res.body.id}`)).status).toBe(200);
  });

  it('validates the definition, writing nothing', async () => {
    const before = await fieldCount();
    expectError(await owner.post('/realm/profile_fields', { name: '  ', field_type: 1 }), 'Label cannot be blank.');
    expectError(await owner.post('/realm/profile_fields', { name: 'x'.repeat(41), field_type: 1 }), 'name is too long.');
    expectError(await owner.post('/realm/profile_fields', { name: 'Hinted', hint: 'h'.repeat(81), field_type: 1 }), 'hint is too long.');
    expectError(await owner.post('/realm/profile_fields', { name: 'Odd', field_type: 9 }), 'Invalid field type.');
    expectError(await owner.post('/realm/profile_fields', { name: 'Phone', field_type: 1 }), 'A field with that label already exists.');
    expectError(await owner.post('/realm/profile_fields', { name: 'Choice', field_type: 3, field_data: {} }), 'Field must have at least one choice.');
    expectError(await owner.post('/realm/profile_fields', { name: 'Choice', field_type: 3, field_data: { a: { text: 'A', order: '1' }, b: { text: 'A', order: '2' } } }), 'Field must not have duplicate choices.');
    expectError(await owner.post('/realm/profile_fields', { name: 'Choice', field_type: 3, field_data: { ' ': { text: 'A', order: '1' } } }), "'value' cannot be blank.");
    expectError(await owner.post('/realm/profile_fields', { name: 'Choice', field_type: 3, field_data: { a: { text: 'A' } } }), 'order key is missing from field_data');
    expectError(await owner.post('/realm/profile_fields', { name: 'Account', field_type: 7, field_data: { subtype: 'myspace' } }), 'Invalid external account type');
    expectError(await owner.post('/realm/profile_fields', { name: 'Account', field_type: 7, field_data: { subtype: 'custom' } }), 'Custom external account must define URL pattern');
    expectError(await owner.post('/realm/profile_fields', { name: 'Account', field_type: 7, field_data: { subtype: 'custom', url_pattern: 'https://example.com/' } }), 'Malformed URL pattern.');
    expectError(await owner.post('/realm/profile_fields', { name: 'Essay', field_type: 2, display_in_profile_summary: true }), 'Only 2 custom profile fields can be displayed in the profile summary.');
    expect(await fieldCount()).toBe(before);
  });

  it('keeps long text and person pickers out of profile summaries', async () => {
    await owner.patch(`/realm/profile_fields/${url}`, { display_in_profile_summary: false });
    try {
      expectError(await owner.post('/realm/profile_fields', { name: 'Essay', field_type: 2, display_in_profile_summary: true }), 'Field type not supported for display in profile summary.');
      expectError(await owner.post('/realm/profile_fields', { name: 'Buddy', field_type: 6, display_in_profile_summary: true }), 'Field type not supported for display in profile summary.');
    } finally {
      await owner.patch(`/realm/profile_fields/${url}`, { display_in_profile_summary: true });
    }
  });

  it('accepts a custom external account with a URL pattern', async () => {
    const id = await createField({ name: 'Mastodon', field_type: 7, field_data: { subtype: 'custom', url_pattern: 'https://social.example/@%(username)s' } });
    expect((await owner.delete(`/realm/profile_fields/${id}`)).status).toBe(200);
  });
});

describe('PATCH /realm/profile_fields/{field_id}', () => {
  it('changes only what is passed and tells everyone', async () => {
    const queue = await register(t.client(member));
    expect((await owner.patch(`/realm/profile_fields/${pronouns}`, { hint: 'How to refer to you', required: true })).status).toBe(200);
    const field = (await t.client(member).get('/realm/profile_fields')).body.custom_fields.find((f: any) => f.id === pronouns);
    expect(field).toMatchObject({ name: 'Pronouns', hint: 'How to refer to you', required: true, editable_by_user: true });
    const events = await allEvents(t.client(member), queue);
    expect(events).toEqual([expect.objectContaining({ type: 'custom_profile_fields', fields: expect.arrayContaining([expect.objectContaining({ id: pronouns, hint: 'How to refer to you' })]) })]);
  });

  it('refuses non-administrators, unknown fields, taken labels and a third summary field', async () => {
    expectError(await t.client(moderator).patch(`/realm/profile_fields/${pronouns}`, { name: 'Nope' }), 'Must be an organization administrator');
    expectError(await owner.patch('/realm/profile_fields/999999', { name: 'Nope' }), 'Field id 999999 not found.');
    expectError(await owner.patch(`/realm/profile_fields/${pronouns}`, { name: 'Phone' }), 'A field with that label already exists.');
    expectError(await owner.patch(`/realm/profile_fields/${pronouns}`, { name: ' ' }), 'Label cannot be blank.');
    expectError(await owner.patch(`/realm/profile_fields/${pronouns}`, { display_in_profile_summary: true }), 'Only 2 custom profile fields can be displayed in the profile summary.');
    expectError(await owner.patch(`/realm/profile_fields/${github}`, { name: 'My GitHub' }), 'Default custom field cannot be updated.');
    expect((await t.db.customProfileField.findUniqueOrThrow({ where: { id: pronouns } })).name).toBe('Pronouns');
  });

  it('drops values naming a removed option', async () => {
    const id = await createField({ name: 'Seat', field_type: 3, field_data: { a: { text: 'Aisle', order: '1' }, w: { text: 'Window', order: '2' } } });
    await t.client(member).patch('/users/me/profile_data', { data: [{ id, value: 'w' }] });
    await t.client(admin).patch('/users/me/profile_data', { data: [{ id, value: 'a' }] });
    expect((await owner.patch(`/realm/profile_fields/${id}`, { field_data: { a: { text: 'Aisle', order: '1' } } })).status).toBe(200);
    expect((await profileOf(member.userId))[String(id)]).toBeUndefined();
    expect((await profileOf(admin.userId))[String(id)]).toEqual({ value: 'a' });
    expect((await owner.delete(`/realm/profile_fields/${id}`)).status).toBe(200);
  });

  it('validates new select options', async () => {
    expectError(await owner.patch(`/realm/profile_fields/${select}`, { field_data: {} }), 'Field must have at least one choice.');
  });
});

describe('PATCH /realm/profile_fields (reorder)', () => {
  it('puts the fields in the given order', async () => {
    const ids = (await owner.get('/realm/profile_fields')).body.custom_fields.map((f: any) => f.id) as number[];
    const reversed = [...ids].reverse();
    const queue = await register(t.client(member));
    expect((await owner.patch('/realm/profile_fields', { order: reversed })).status).toBe(200);
    const after = (await t.client(member).get('/realm/profile_fields')).body.custom_fields;
    expect(after.map((f: any) => f.id)).toEqual(reversed);
    expect(after.map((f: any) => f.order)).toEqual(reversed.map((_, i) => i));
    const events = await allEvents(t.client(member), queue);
    expect(events[0]!.fields.map((f: any) => f.id)).toEqual(reversed);
    // The register response follows.
    const state = await t.client(member).post('/register', { fetch_event_types: ['custom_profile_fields'] });
    expect(state.body.custom_profile_fields.map((f: any) => f.id)).toEqual(reversed);
    expect((await owner.patch('/realm/profile_fields', { order: ids })).status).toBe(200);
  });

  it('refuses an order missing a field, and non-administrators', async () => {
    const ids = (await owner.get('/realm/profile_fields')).body.custom_fields.map((f: any) => f.id) as number[];
    expectError(await owner.patch('/realm/profile_fields', { order: ids.slice(1) }), 'Invalid order mapping.');
    expectError(await t.client(member).patch('/realm/profile_fields', { order: ids }), 'Must be an organization administrator');
    const after = (await owner.get('/realm/profile_fields')).body.custom_fields.map((f: any) => f.id);
    expect(after).toEqual(ids);
  });
});

describe('PATCH /users/me/profile_data', () => {
  it('sets the caller\'s values of every type, rendered where Markdown applies, and tells everyone', async () => {
    const queue = await register(t.client(guest));
    const res = await t.client(member).patch('/users/me/profile_data', {
      data: [
        { id: shortText, value: '+1 555 *0100*' },
        { id: longText, value: 'I like **bold** things' },
        { id: select, value: 'vim' },
        { id: date, value: '1990-02-28' },
        { id: url, value: 'https://example.com/me' },
        { id: users, value: [admin.userId, moderator.userId] },
        { id: github, value: 'octocat' },
        { id: pronouns, value: 'they/them' },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const profile = await profileOf(member.userId, t.client(admin));
    expect(profile[String(shortText)]!.value).toBe('+1 555 *0100*');
    expect(profile[String(shortText)]!.rendered_value).toContain('<em>0100</em>');
    expect(profile[String(longText)]!.rendered_value).toContain('<strong>bold</strong>');
    expect(profile[String(select)]).toEqual({ value: 'vim' });
    expect(profile[String(date)]).toEqual({ value: '1990-02-28' });
    expect(profile[String(users)]).toEqual({ value: JSON.stringify([admin.userId, moderator.userId]) });
    expect(profile[String(pronouns)]).toEqual({ value: 'they/them' });

    const events = await allEvents(t.client(guest), queue);
    expect(events).toHaveLength(8);
    expect(events).toContainEqual(expect.objectContaining({
      type: 'realm_user', op: 'update', person: { user_id: member.userId, custom_profile_field: { id: select, value: 'vim' } },
    }));
    expect(events).toContainEqual(expect.objectContaining({
      person: { user_id: member.userId, custom_profile_field: { id: longText, value: 'I like **bold** things', rendered_value: expect.stringContaining('<strong>') } },
    }));
    // The register response carries the same values.
    const state = await t.client(admin).post('/register', { fetch_event_types: ['realm_user'] });
    const me = state.body.realm_users.find((u: any) => u.user_id === member.userId);
    expect(me.profile_data[String(select)]).toEqual({ value: 'vim' });
  });

  it('sends no event for an unchanged value', async () => {
    const queue = await register(t.client(admin));
    expect((await t.client(member).patch('/users/me/profile_data', { data: [{ id: select, value: 'vim' }] })).status).toBe(200);
    expect(await allEvents(t.client(admin), queue)).toEqual([]);
  });

  it('validates each value by its field type, writing nothing', async () => {
    const before = await profileOf(member.userId);
    const bot = (await makeBot(t, member, { fullName: 'Field Bot' })).userId;
    const deactivated = await makeUser(t, { fullName: 'Gone Away' });
    await owner.delete(`/users/${deactivated.userId}`);
    const cases: [number, unknown, string][] = [
      [shortText, 'x'.repeat(51), 'Phone is too long (limit: 50 characters)'],
      [longText, 'x'.repeat(501), 'Biography is too long (limit: 500 characters)'],
      [shortText, 12, 'Phone is not a string'],
      [select, 'nano', "'nano' is not a valid choice for 'Editor'."],
      [date, '1990-02-30', 'Birthday is not a date'],
      [date, 'yesterday', 'Birthday is not a date'],
      [url, 'not a url', 'Website is not a URL'],
      [url, 'javascript:alert(1)', 'Website is not a URL'],
      [users, 'everyone', 'User IDs is not a list'],
      [users, [999999], 'Invalid user ID: 999999'],
      [users, [deactivated.userId], `User with ID ${deactivated.userId} is deactivated`],
      [users, [bot], `User with ID ${bot} is a bot`],
      [999999, 'x', 'Field id 999999 not found.'],
    ];
    for (const [id, value, msg] of cases) {
      // A valid item first: the whole request is refused.
      expectError(await t.client(member).patch('/users/me/profile_data', { data: [{ id: pronouns, value: 'she/her' }, { id, value }] }), msg);
    }
    expectError(await t.client(member).patch('/users/me/profile_data', { data: ['x'] }), 'data[0] is not a dict');
    expectError(await t.client(member).patch('/users/me/profile_data', { data: { id: 1 } }), 'data is not a list');
    expect(await profileOf(member.userId)).toEqual(before);
  });

  it('refuses fields users may not edit, unless the caller is an administrator', async () => {
    expectError(await t.client(member).patch('/users/me/profile_data', { data: [{ id: locked, value: 'E-1' }] }), 'You are not allowed to change this field. Contact an administrator to update it.');
    expect((await profileOf(member.userId))[String(locked)]).toBeUndefined();
    expect((await t.client(admin).patch('/users/me/profile_data', { data: [{ id: locked, value: 'E-2' }] })).status).toBe(200);
    expect((await profileOf(admin.userId))[String(locked)]).toEqual({ value: 'E-2', rendered_value: '<p>E-2</p>' });
  });

  it('refuses bots', async () => {
    const bot = await makeBot(t, member, { fullName: 'Profile Bot' });
    expectError(await t.client(bot).patch('/users/me/profile_data', { data: [{ id: pronouns, value: 'it/its' }] }), 'This endpoint does not accept bot requests.');
    expect(await t.db.customProfileFieldValue.count({ where: { userId: bot.userId } })).toBe(0);
  });

  it('removes a value given null', async () => {
    const queue = await register(t.client(admin));
    expect((await t.client(member).patch('/users/me/profile_data', { data: [{ id: pronouns, value: null }] })).status).toBe(200);
    expect((await profileOf(member.userId))[String(pronouns)]).toBeUndefined();
    const events = await allEvents(t.client(admin), queue);
    expect(events).toEqual([expect.objectContaining({ person: { user_id: member.userId, custom_profile_field: { id: pronouns, value: null } } })]);
  });
});

describe('DELETE /users/me/profile_data', () => {
  it('removes the caller\'s values and tells everyone', async () => {
    const queue = await register(t.client(admin));
    expect((await t.client(member).delete('/users/me/profile_data', { data: [date, url] })).status).toBe(200);
    const profile = await profileOf(member.userId);
    expect(profile[String(date)]).toBeUndefined();
    expect(profile[String(url)]).toBeUndefined();
    const events = await allEvents(t.client(admin), queue);
    expect(events.map((e) => e.person.custom_profile_field)).toEqual([{ id: date, value: null }, { id: url, value: null }]);
  });

  it('refuses unknown and locked fields', async () => {
    expectError(await t.client(member).delete('/users/me/profile_data', { data: [999999] }), 'Field id 999999 not found.');
    expectError(await t.client(member).delete('/users/me/profile_data', { data: [locked] }), 'You are not allowed to change this field. Contact an administrator to update it.');
  });
});

describe('PATCH /users/{user_id} with profile_data', () => {
  it('lets administrators set any field, locked ones included, and remove values with null', async () => {
    const queue = await register(t.client(member));
    const res = await t.client(admin).patch(`/users/${member.userId}`, { profile_data: [{ id: locked, value: 'E-7' }, { id: select, value: null }, { id: users, value: [guest.userId] }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const profile = await profileOf(member.userId);
    expect(profile[String(locked)]!.value).toBe('E-7');
    expect(profile[String(select)]).toBeUndefined();
    expect(profile[String(users)]).toEqual({ value: JSON.stringify([guest.userId]) });
    const events = await allEvents(t.client(member), queue);
    expect(events.map((e) => e.person.custom_profile_field.id)).toEqual([locked, select, users]);
  });

  it('validates values as for the user, and refuses non-administrators', async () => {
    expectError(await t.client(admin).patch(`/users/${member.userId}`, { profile_data: [{ id: date, value: '2020-13-01' }] }), 'Birthday is not a date');
    expectError(await t.client(admin).patch(`/users/${member.userId}`, { profile_data: [{ value: 'x' }] }), 'id key is missing from profile_data[0]');
    expectError(await t.client(moderator).patch(`/users/${member.userId}`, { profile_data: [{ id: locked, value: 'E-9' }] }), 'Must be an organization administrator');
    expect((await profileOf(member.userId))[String(locked)]!.value).toBe('E-7');
  });
});

describe('DELETE /realm/profile_fields/{field_id}', () => {
  it('deletes the field and every value, and tells everyone', async () => {
    const queue = await register(t.client(member));
    expect((await owner.delete(`/realm/profile_fields/${locked}`)).status).toBe(200);
    expect((await owner.get('/realm/profile_fields')).body.custom_fields.map((f: any) => f.id)).not.toContain(locked);
    expect(await t.db.customProfileFieldValue.count({ where: { fieldId: locked } })).toBe(0);
    expect((await profileOf(member.userId))[String(locked)]).toBeUndefined();
    const events = await allEvents(t.client(member), queue);
    expect(events).toEqual([expect.objectContaining({ type: 'custom_profile_fields' })]);
    expect(events[0]!.fields.map((f: any) => f.id)).not.toContain(locked);
  });

  it('refuses unknown fields and non-administrators', async () => {
    expectError(await owner.delete(`/realm/profile_fields/${locked}`), `Field id ${locked} not found.`);
    expectError(await t.client(member).delete(`/realm/profile_fields/${pronouns}`), 'Must be an organization administrator');
    expect(await t.db.customProfileField.count({ where: { id: pronouns } })).toBe(1);
  });
});
