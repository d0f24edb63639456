// Narrows with a null operand get a clear 400, on every endpoint taking a narrow.
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/fixtures.ts';

const t = useTestServer();

const narrow = [{ operator: 'topic', operand: null }];

describe('a narrow term whose operand is null', () => {
  it('POST /messages/flags/narrow names the missing operand', async () => {
    for (const encoding of ['urlencoded', 'json'] as const) {
      const res = await t.client(t.owner).post('/messages/flags/narrow',
        { anchor: 'oldest', num_before: 0, num_after: 5, op: 'add', flag: 'read', narrow }, encoding);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid narrow[0]: operand is missing' });
    }
  });

  it('GET /messages names the missing operand', async () => {
    const res = await t.client(t.owner).get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid narrow[0]: operand is missing' });
  });
});
