// Hostile requests for every REST route and every GraphQL Query and Mutation field
// (test/support/fuzz.ts): none may be answered with a 5xx or a GraphQL INTERNAL_SERVER_ERROR. A
// few thousand seeded requests here (FUZZ_REQUESTS, FUZZ_SEED to change them);
// scripts/hostile/fuzz.ts sends hundreds of thousands.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, makeChannel, sendToChannel } from '../support/factories.ts';
import { fuzz, graphqlFields, restRoutes, type FuzzCallers } from '../support/fuzz.ts';
import { useTestServer } from '../support/fixtures.ts';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 12);

let target: FuzzCallers;
const t = useTestServer();

beforeAll(async () => {
  const member = await makeUser(t);
  const guest = await makeUser(t, { role: 600 });
  await makeChannel(t.client(t.owner), 'fuzzed', {});
  await sendToChannel(t.client(t.owner), 'general', 'fuzz', 'something to edit and react to');
  target = { baseUrl: t.baseUrl, callers: [t.owner, member, guest] };
});

describe('hostile input to every route and field', () => {
  it(`${REQUESTS} seeded requests: no 5xx, no GraphQL INTERNAL_SERVER_ERROR`, async () => {
    const result = await fuzz(target, SEED, REQUESTS, { concurrency: 4 });
    expect(result.sent).toBe(REQUESTS);
    // Every route and every field was sent something.
    expect(result.rest).toBeGreaterThanOrEqual(Math.min(REQUESTS, restRoutes().length));
    expect(result.graphql).toBeGreaterThanOrEqual(Math.min(REQUESTS - restRoutes().length, graphqlFields().length));
    expect(result.failures, JSON.stringify(result.failures, null, 1)).toEqual([]);
    // The server still answers afterwards.
    expect((await t.client(t.owner).get('/users/me')).status).toBe(200);
  }, 600_000);
});
