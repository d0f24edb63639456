// GET /messages with a hostile anchor_date answers 400, not 500.
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/fixtures.ts';

const t = useTestServer();

describe('GET /messages anchor=date', () => {
  it('refuses the year 0', async () => {
    const res = await t.client(t.owner).get('/messages', { anchor: 'date', anchor_date: '0000-01-01', num_before: 1, num_after: 1 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', msg: 'Invalid anchor_date' });
  });

  it('takes the year 1', async () => {
    const res = await t.client(t.owner).get('/messages', { anchor: 'date', anchor_date: '0001-01-01', num_before: 1, num_after: 1 });
    expect(res.status).toBe(200);
  });

  it('refuses a day past the end of its month', async () => {
    for (const anchorDate of ['2024-02-30', '2023-02-29T10:00', '2024-04-31 00:00:00']) {
      const res = await t.client(t.owner).get('/messages', { anchor: 'date', anchor_date: anchorDate, num_before: 1, num_after: 1 });
      expect(res.status, anchorDate).toBe(400);
      expect(res.body).toMatchObject({ result: 'error', msg: 'Invalid anchor_date' });
    }
  });

  it('takes a leap day', async () => {
    const res = await t.client(t.owner).get('/messages', { anchor: 'date', anchor_date: '2024-02-29', num_before: 1, num_after: 1 });
    expect(res.status).toBe(200);
  });
});
