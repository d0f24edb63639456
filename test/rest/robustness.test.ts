// No input produces a 500: every route in the table is called with missing, mistyped and hostile
// parameters, and must answer with a Zulip error envelope (or success), never a server error.
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../rest-facade/routes.ts';
import { compileRoutes } from '../../rest-facade/compile.ts';
import { schema } from '../../schema/index.ts';
import { ApiClient } from '../support/client.ts';
import { makeUser, sendToChannel } from '../support/factories.ts';
import { useTestServer } from '../support/fixtures.ts';

let messageId: number;
const t = useTestServer();

beforeAll(async () => {
  messageId = await sendToChannel(t.client(t.owner), 'general', 'robust', 'target');
});

const HOSTILE_VALUES: unknown[] = [
  '', ' ', 'null', '[]', '{}', '[[[[', '"str"', '-1', '0', '99999999999999999999', '2147483648', '1.5', 'true',
  '[{"operator":"channel"}]', '[["is"]]', '[{"operator":"search","operand":"\\u0000 & | ! ( )"}]',
  'x'.repeat(20000), '\u0000', '%00', '<script>', '[1,"a",null]', '{"name":null}', '[{"name":123}]',
];

function concretePath(path: string, value: string): string {
  return path.replace(/\{(\w+)\}/g, () => value);
}

describe('Every route answers bad input with a Zulip error, never a 500', () => {
  for (const { route, params } of compileRoutes(schema, routes)) {
    it(`${route.method} ${route.path}`, async () => {
      // No OpenAPI check here: these requests are deliberately malformed. A route that replaces the
      // caller's own API key is swept by a user of its own, so the owner's key stays valid for the rest.
      const caller = route.path.includes('api_key/regenerate') ? await makeUser(t, { fullName: 'Key regenerator' }) : t.owner;
      const client = new ApiClient(t.baseUrl, caller, undefined, false);
      const paramNames = params.filter((p) => !p.inPath).map((p) => p.wire);
      const paths = [concretePath(route.path, String(messageId)), concretePath(route.path, '0'), concretePath(route.path, '99999999999')];
      const attempts: Record<string, unknown>[] = [{}];
      for (const value of HOSTILE_VALUES) attempts.push(Object.fromEntries(paramNames.map((name) => [name, value])));
      for (const name of paramNames) for (const value of HOSTILE_VALUES.slice(0, 8)) attempts.push({ [name]: value });
      for (const path of paths) {
        for (const params of attempts) {
          const encoding = route.method === 'GET' ? 'query' : 'urlencoded';
          const res = await client.request(route.method, path, params, encoding);
          expect(res.status, `${route.method} ${path} ${JSON.stringify(params).slice(0, 200)} → ${JSON.stringify(res.body).slice(0, 300)}`).toBeLessThan(500);
          // A HEAD answer has no body (HTTP); its status says it all.
          if (route.method !== 'HEAD') expect(typeof res.body === 'object' && res.body !== null && 'result' in res.body).toBe(true);
        }
      }
    }, 120_000);
  }
});

describe('IDs that cannot name a row are refused, not a 500', () => {
  const HUGE = [2147483648, 99999999999, -1, 0];
  it('in message recipients, narrows, principals and reactions', async () => {
    const client = new ApiClient(t.baseUrl, t.owner, undefined, false);
    const attempts: [string, string, Record<string, unknown>][] = [];
    for (const id of HUGE) {
      attempts.push(['POST', '/messages', { type: 'stream', to: id, topic: 't', content: 'x' }]);
      attempts.push(['POST', '/messages', { type: 'stream', to: '1.5', topic: 't', content: 'x' }]);
      attempts.push(['POST', '/messages', { type: 'direct', to: [id], content: 'x' }]);
      for (const operator of ['id', 'sender', 'with', 'channel', 'dm', 'dm-including']) {
        attempts.push(['GET', '/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator, operand: id }] }]);
      }
      attempts.push(['POST', '/users/me/subscriptions', { subscriptions: [{ name: 'general' }], principals: [id] }]);
      attempts.push(['POST', `/messages/${messageId}/reactions`, { emoji_name: 'x', reaction_type: 'realm_emoji', emoji_code: String(id) }]);
    }
    attempts.push(['GET', '/users/%E0%A4%A', {}]);
    for (const [method, path, params] of attempts) {
      const res = await client.request(method, path, params, method === 'GET' ? 'query' : 'urlencoded');
      expect(res.status, `${method} ${path} ${JSON.stringify(params)} → ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.result).toBe('error');
    }
  });
});
