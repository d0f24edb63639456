// The same request through REST and through /graphql gives the same answer: REST's `msg`, `code`,
// HTTP status and extra fields are GraphQL's `message`, `extensions.code`, `extensions.httpStatus`
// and `extensions.zulip`, because the REST facade runs the GraphQL operation.
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, type TestServer } from '../support/server.ts';
import { makeChannel, sendToChannel } from '../support/factories.ts';
import { graphql, type ApiResponse, type Credentials } from '../support/client.ts';
import { ok } from './helpers.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

let secret: number;
let aliceMessage: number;
const t = useTestServer();
const { alice, bob } = useTeam(t, ['alice', 'bob']);

beforeAll(async () => {
  secret = await makeChannel(t.client(t.owner), 'parity-secret', { invite_only: true });
  aliceMessage = await sendToChannel(t.client(alice), 'general', 'parity', 'written by **alice**');
});

interface Case {
  name: string;
  as?: Credentials | (() => Credentials);
  rest: (c: ReturnType<TestServer['client']>) => Promise<ApiResponse>;
  query: string;
  variables?: () => Record<string, unknown>;
  code: string;
}

const cases: Case[] = [
  {
    name: 'a wrong password (AUTHENTICATION_FAILED)',
    rest: (c) => c.post('/fetch_api_key', { username: ADMIN_EMAIL, password: 'wrong' }),
    query: 'mutation { fetchApiKey(username: "owner@example.com", password: "wrong") { apiKey } }',
    code: 'AUTHENTICATION_FAILED',
  },
  {
    name: 'no credentials (UNAUTHORIZED)',
    rest: (c) => c.get('/users/me'),
    query: '{ me { userId } }',
    code: 'UNAUTHORIZED',
  },
  {
    name: 'a private channel by ID for an outsider (STREAM_DOES_NOT_EXIST)',
    as: () => alice,
    rest: (c) => c.post('/messages', { type: 'stream', to: secret, topic: 't', content: 'x' }),
    query: 'mutation($to: JSON!) { sendMessage(type: "stream", to: $to, topic: "t", content: "x") }',
    variables: () => ({ to: secret }),
    code: 'STREAM_DOES_NOT_EXIST',
  },
  {
    name: 'a private channel by name for an outsider in get_stream_id (BAD_REQUEST, as Zulip)',
    as: () => alice,
    rest: (c) => c.get('/get_stream_id', { stream: 'parity-secret' }),
    query: '{ channelIdByName(name: "parity-secret") }',
    code: 'BAD_REQUEST',
  },
  {
    name: 'a channel narrow on a channel the organization does not have (BAD_NARROW)',
    as: () => alice,
    rest: (c) => c.get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'channel', operand: 'parity-no-such' }] }),
    query: 'query($n: [NarrowTermInput!]) { messages(anchor: "newest", numBefore: 10, numAfter: 0, narrow: $n) { foundNewest } }',
    variables: () => ({ n: [{ operator: 'channel', operand: 'parity-no-such' }] }),
    code: 'BAD_NARROW',
  },
  {
    name: 'more than 5000 messages (BAD_REQUEST)',
    as: () => alice,
    rest: (c) => c.get('/messages', { anchor: 'newest', num_before: 5001, num_after: 0 }),
    query: '{ messages(anchor: "newest", numBefore: 5001, numAfter: 0) { foundNewest } }',
    code: 'BAD_REQUEST',
  },
  {
    name: 'a missing num_before (REQUEST_VARIABLE_MISSING)',
    as: () => alice,
    rest: (c) => c.get('/messages', { anchor: 'newest', num_after: 0 }),
    query: '{ messages(anchor: "newest", numAfter: 0) { foundNewest } }',
    code: 'REQUEST_VARIABLE_MISSING',
  },
  {
    name: 'editing another user\'s message (BAD_REQUEST)',
    as: () => bob,
    rest: (c) => c.patch(`/messages/${aliceMessage}`, { content: 'bob was here' }),
    query: 'mutation($id: Int!) { updateMessage(messageId: $id, content: "bob was here") { detachedUploads { id } } }',
    variables: () => ({ id: aliceMessage }),
    code: 'BAD_REQUEST',
  },
  {
    name: 'an unknown message (Invalid message(s))',
    as: () => alice,
    rest: (c) => c.get('/messages/987654321'),
    query: '{ message(messageId: 987654321) { id } }',
    code: 'BAD_REQUEST',
  },
  {
    name: 'removing a reaction that does not exist (REACTION_DOES_NOT_EXIST)',
    as: () => alice,
    rest: (c) => c.delete(`/messages/${aliceMessage}/reactions`, { emoji_name: 'tada' }),
    query: 'mutation($id: Int!) { removeReaction(messageId: $id, reaction: { emojiName: "tada" }) }',
    variables: () => ({ id: aliceMessage }),
    code: 'REACTION_DOES_NOT_EXIST',
  },
  {
    name: 'creating a user as a plain member (UNAUTHORIZED_PRINCIPAL)',
    as: () => alice,
    rest: (c) => c.post('/users', { email: 'parity@example.com', password: 'pw', full_name: 'Parity' }),
    query: 'mutation { createUser(email: "parity@example.com", password: "pw", fullName: "Parity") }',
    code: 'UNAUTHORIZED_PRINCIPAL',
  },
];

describe('Errors are the same through REST and GraphQL', () => {
  for (const c of cases) {
    it(`for ${c.name}`, async () => {
      const creds = typeof c.as === 'function' ? c.as() : c.as;
      const rest = await c.rest(t.client(creds));
      const gql = await graphql(t.baseUrl, c.query, c.variables?.() ?? {}, creds);
      const error = gql.body.errors?.[0];
      expect(error, JSON.stringify(gql.body)).toBeDefined();
      expect(rest.body.result).toBe('error');
      expect(rest.body.code).toBe(c.code);
      expect(error!.extensions?.code).toBe(rest.body.code);
      expect(error!.message).toBe(rest.body.msg);
      expect(error!.extensions?.httpStatus).toBe(rest.status);
      const { result: _r, msg: _m, code: _c, ...extra } = rest.body;
      expect(error!.extensions?.zulip ?? {}).toEqual(extra);
      // Only authentication failures change the HTTP status of a GraphQL response.
      expect(gql.status).toBe(rest.status === 401 ? 401 : 200);
    });
  }
});

describe('Results are the same through REST and GraphQL', () => {
  it('GET /messages/{id} and `message` agree field by field', async () => {
    const rest = await t.client(bob).get(`/messages/${aliceMessage}`);
    const data = await ok(t, `query($id: Int!) { message(messageId: $id) {
      id senderId senderEmail senderFullName content contentType rawContent displayRecipient streamId topic type flags timestamp reactions { emojiName } } }`,
    { id: aliceMessage }, bob);
    const m = data.message;
    expect(rest.body.raw_content).toBe(m.rawContent);
    expect(rest.body.message).toMatchObject({
      id: m.id, sender_id: m.senderId, sender_email: m.senderEmail, sender_full_name: m.senderFullName, content: m.content,
      content_type: m.contentType, display_recipient: m.displayRecipient, stream_id: m.streamId, subject: m.topic, type: m.type,
      flags: m.flags, timestamp: m.timestamp, reactions: m.reactions,
    });
  });

  it('GET /users/me and `me` agree', async () => {
    const rest = await t.client(alice).get('/users/me');
    const data = await ok(t, '{ me { userId email fullName role isAdmin isOwner isGuest avatarUrl(clientGravatar: false) } maxMessageId }', {}, alice);
    expect(rest.body).toMatchObject({
      user_id: data.me.userId, email: data.me.email, full_name: data.me.fullName, role: data.me.role, is_admin: data.me.isAdmin,
      is_owner: data.me.isOwner, is_guest: data.me.isGuest, avatar_url: data.me.avatarUrl, max_message_id: data.maxMessageId,
    });
  });

  it('GET /streams and `channels` list the same channels for the same viewer', async () => {
    for (const viewer of [t.owner, alice]) {
      const rest = await t.client(viewer).get('/streams');
      const data = await ok(t, '{ channels { streamId name inviteOnly } }', {}, viewer);
      expect(rest.body.streams.map((s: { stream_id: number; name: string; invite_only: boolean }) =>
        ({ streamId: s.stream_id, name: s.name, inviteOnly: s.invite_only }))).toEqual(data.channels);
    }
  });
});
