// Presence history limits beyond the calendar are answered, not a 500.
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/fixtures.ts';

const t = useTestServer();

describe('POST /users/me/presence history_limit_days', () => {
  it('takes the largest integer and answers with everyone recently seen', async () => {
    const res = await t.client(t.owner).post('/users/me/presence', { status: 'active', slim_presence: true, history_limit_days: 2 ** 31 - 1 });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.presences)).toContain(String(t.owner.userId));
  });
});

describe('POST /register presence_history_limit_days', () => {
  it('takes the largest integer', async () => {
    await t.client(t.owner).post('/users/me/presence', { status: 'active' });
    const res = await t.client(t.owner).post('/register', { fetch_event_types: ['presence'], slim_presence: true, presence_history_limit_days: 2 ** 31 - 1 });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.presences)).toContain(String(t.owner.userId));
  });
});
