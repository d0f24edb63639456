// Checks that the OpenAPI helper accepts what zulip.yaml documents and rejects what it does not.
import { describe, it, expect } from 'vitest';
import { conformanceAvailable, hasOperation, validateEvent, validateResponse } from './openapi.ts';

// Without zulip.yaml there is nothing to check the helper against (global-setup.ts says so once).
const withSpec = describe.skipIf(!conformanceAvailable());

// Built from the example of GET /users/me in zulip.yaml.
const usersMe = {
  result: 'success',
  msg: '',
  avatar_url: 'https://secure.gravatar.com/avatar/af4f06322c177ef4e1e9b2c424986b54?d=identicon&version=1',
  avatar_version: 1,
  email: 'iago@zulip.com',
  delivery_email: 'iago@zulip.com',
  full_name: 'Iago',
  is_admin: true,
  is_owner: false,
  role: 200,
  is_guest: false,
  is_bot: false,
  is_active: true,
  timezone: '',
  date_joined: '2019-10-20T07:50:53.728864+00:00',
  max_message_id: 30,
  user_id: 5,
  profile_data: {
    '1': { value: '+1-234-567-8901', rendered_value: '<p>+1-234-567-8901</p>' },
    '4': { value: 'emacs' },
  },
};

// A `User` record: allOf [UserBase, {additionalProperties: false, re-listed properties}], with
// several nullable fields.
const user = {
  user_id: 12,
  delivery_email: null,
  email: 'user12@example.com',
  full_name: 'Cordelia',
  date_joined: '2019-10-20T07:50:53.728864+00:00',
  is_active: true,
  is_owner: false,
  is_admin: false,
  is_guest: false,
  is_bot: false,
  bot_type: null,
  bot_owner_id: null,
  role: 400,
  timezone: 'Europe/Paris',
  avatar_url: null,
  avatar_version: 1,
  profile_data: {},
};

withSpec('validateResponse', () => {
  it('accepts a correct GET /users/me body', () => {
    expect(() => validateResponse('GET', '/users/me', 200, usersMe)).not.toThrow();
  });

  it('rejects a body missing a required field', () => {
    const { msg: _msg, ...body } = usersMe;
    expect(() => validateResponse('GET', '/users/me', 200, body)).toThrow(/GET \/users\/me.*200[\s\S]*msg/);
  });

  it('rejects an unknown property, naming it', () => {
    expect(() => validateResponse('GET', '/users/me', 200, { ...usersMe, surprise: 1 })).toThrow(
      /additional properties.*surprise/,
    );
  });

  it('rejects a wrongly typed field and shows the body', () => {
    expect(() => validateResponse('GET', '/users/me', 200, { ...usersMe, user_id: '5' })).toThrow(
      /\/user_id: must be integer[\s\S]*body: \{/,
    );
  });

  it('handles allOf with re-listed properties and nullable fields (User schema)', () => {
    const ok = { result: 'success', msg: '', user };
    expect(() => validateResponse('GET', '/users/12', 200, ok)).not.toThrow();
    expect(() => validateResponse('GET', '/users/12', 200, { ...ok, user: { ...user, email: null } })).toThrow(
      /\/user\/email: must be string/,
    );
    expect(() => validateResponse('GET', '/users/12', 200, { ...ok, user: { ...user, nickname: 'x' } })).toThrow(
      /\/user: must NOT have additional properties.*nickname/,
    );
  });

  it('accepts a coded error for an operation that documents 400, and checks its shape', () => {
    // The yaml documents this 400 as a oneOf of two identical CodedError variants.
    const error = { result: 'error', msg: 'x', code: 'BAD_REQUEST' };
    expect(() => validateResponse('POST', '/messages/12/reactions', 400, error)).not.toThrow();
    expect(() => validateResponse('POST', '/messages/12/reactions', 400, { result: 'error', msg: 'x' })).toThrow(
      /code/,
    );
  });

  it('passes paths, methods and statuses the yaml does not document', () => {
    expect(() => validateResponse('GET', '/navigation_views', 200, { anything: true })).not.toThrow();
    expect(() => validateResponse('PUT', '/users/me', 200, 'nope')).not.toThrow();
    expect(() => validateResponse('GET', '/users/me', 418, 'nope')).not.toThrow();
  });

  it('checks each event of a GET /events body', () => {
    const body = { result: 'success', msg: '', queue_id: 'q', events: [{ type: 'heartbeat', id: 1 }, { type: 'heartbeat' }] };
    expect(() => validateResponse('GET', '/events', 200, body)).toThrow(/events\[1\][\s\S]*'id'/);
  });
});

withSpec('hasOperation', () => {
  it('prefers literal segments and types id/email parameters', () => {
    expect(hasOperation('GET', '/users/me')).toBe(true);
    expect(hasOperation('DELETE', '/users/me')).toBe(true);
    // /users/me has no PATCH, and "me" is not a {user_id}.
    expect(hasOperation('PATCH', '/users/me')).toBe(false);
    expect(hasOperation('PATCH', '/users/12')).toBe(true);
    expect(hasOperation('GET', '/users/iago%40zulip.com')).toBe(true);
    expect(hasOperation('GET', '/messages/12/reactions')).toBe(false);
    expect(hasOperation('post', '/messages/12/reactions')).toBe(true);
    expect(hasOperation('GET', '/no/such/path')).toBe(false);
  });
});

withSpec('validateEvent', () => {
  it('accepts a heartbeat with an id and rejects one without', () => {
    // The yaml's heartbeat schema declares `id` and `type` but requires neither; validateEvent
    // requires both, as every event served by GET /events has them.
    expect(() => validateEvent({ type: 'heartbeat', id: 1 })).not.toThrow();
    expect(() => validateEvent({ type: 'heartbeat' })).toThrow(/heartbeat[\s\S]*'id'/);
    expect(() => validateEvent({ type: 'heartbeat' }, { requireId: false })).not.toThrow();
    expect(() => validateEvent({ type: 'heartbeat', id: 1, extra: true })).toThrow(/extra/);
  });

  it('picks the schema matching type and op', () => {
    const reaction = {
      type: 'reaction',
      op: 'add',
      id: 3,
      user_id: 10,
      user: { user_id: 10, email: 'user10@example.com', full_name: 'King Hamlet' },
      message_id: 32,
      emoji_name: 'tada',
      emoji_code: '1f389',
      reaction_type: 'unicode_emoji',
    };
    expect(() => validateEvent(reaction)).not.toThrow();
    expect(() => validateEvent({ ...reaction, op: 'remove' })).not.toThrow();
    expect(() => validateEvent({ ...reaction, op: 'toggle' })).toThrow(/op "toggle"[\s\S]*allowed/);
    expect(() => validateEvent({ ...reaction, message_id: 'x' })).toThrow(/\/message_id: must be integer/);
  });

  it('throws for an unknown event type, listing the known ones', () => {
    expect(() => validateEvent({ type: 'no_such_event', id: 1 })).toThrow(/no_such_event[\s\S]*known types:.*heartbeat/);
  });
});
