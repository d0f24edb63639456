// Channel administration answers hostile input with Zulip-style 4xx errors.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel } from '../support/factories.ts';
import { useTestServer } from '../support/fixtures.ts';

let channelId: number;
const t = useTestServer();
beforeAll(async () => {
  channelId = await makeChannel(t.client(t.owner), 'retention');
});

describe('PATCH /streams/{stream_id} message_retention_days', () => {
  it('refuses a number of days too large to store, and changes nothing', async () => {
    const owner = t.client(t.owner);
    for (const value of [2 ** 31, 2 ** 40]) {
      const res = await owner.patch(`/streams/${channelId}`, { message_retention_days: value });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: `Bad value for 'message_retention_days': ${value}` });
    }
    const stream = await owner.get(`/streams/${channelId}`);
    expect(stream.body.stream.message_retention_days).toBeNull();
  });

  it('still takes the largest storable value', async () => {
    const res = await t.client(t.owner).patch(`/streams/${channelId}`, { message_retention_days: 2 ** 31 - 1 });
    expect(res.status).toBe(200);
  });
});
