// Alert words (Zulip's /users/me/alert_words): one's own list only, case-insensitive and kept in the
// owner's spelling, words of at most 100 characters, `alert_words` events with the whole list to the
// owner only, and the register response's `alert_words`; the same through GraphQL.
import { describe, expect, it } from 'vitest';
import { makeUser, type MadeUser } from '../support/factories.ts';
import type { ApiClient } from '../support/client.ts';
import { fails, ok } from '../graphql/helpers.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer();
const { alice, bob } = useTeam(t, ['alice', 'bob']);

async function words(c: ApiClient): Promise<string[]> {
  const res = await c.get('/users/me/alert_words');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.alert_words;
}
const queue = async (c: ApiClient) => (await registerQueue(c, { event_types: ['alert_words'] })).queue_id;

describe('POST /users/me/alert_words', () => {
  it('adds words, trimmed, skipping empty ones and ones already there in any case; answers the whole list', async () => {
    const carol = t.client(await makeUser(t));
    let res = await carol.post('/users/me/alert_words', { alert_words: ['  Natural ', '', 'illustrious'] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.alert_words).toEqual(['Natural', 'illustrious']);
    res = await carol.post('/users/me/alert_words', { alert_words: ['NATURAL', 'new one', 'New One'] });
    expect(res.body.alert_words).toEqual(['Natural', 'illustrious', 'New One']);
    expect(await words(carol)).toEqual(['Natural', 'illustrious', 'New One']);
  });

  it('refuses words over 100 characters, naming the word, and changes nothing', async () => {
    const carol = t.client(await makeUser(t));
    const res = await carol.post('/users/me/alert_words', { alert_words: ['fine', 'x'.repeat(101)] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'alert_words[1] is too long (limit: 100 characters)' });
    expect(await words(carol)).toEqual([]);
    expect((await carol.post('/users/me/alert_words', { alert_words: ['y'.repeat(100)] })).status).toBe(200);
  });

  it('requires a JSON list of strings', async () => {
    const carol = t.client(await makeUser(t));
    expect((await carol.post('/users/me/alert_words', {})).body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'alert_words' });
    expect((await carol.post('/users/me/alert_words', { alert_words: 'word' })).status).toBe(400);
    expect((await carol.post('/users/me/alert_words', { alert_words: [1, 2] })).status).toBe(400);
  });

  it('keeps one copy when the same word is added by parallel requests', async () => {
    const carol = t.client(await makeUser(t));
    const results = await Promise.all(['race', 'RACE', 'Race', 'race', 'rAce'].map((w) => carol.post('/users/me/alert_words', { alert_words: [w] })));
    for (const res of results) expect(res.status).toBe(200);
    expect((await words(carol)).map((w) => w.toLowerCase())).toEqual(['race']);
  });

  it('needs credentials', async () => {
    expect((await t.client().post('/users/me/alert_words', { alert_words: ['x'] })).status).toBe(401);
  });
});

describe('DELETE /users/me/alert_words', () => {
  it('removes words ignoring case, ignores words not there, and answers the whole list', async () => {
    const carol = t.client(await makeUser(t));
    await carol.post('/users/me/alert_words', { alert_words: ['Apple', 'banana', 'cherry'] });
    const res = await carol.delete('/users/me/alert_words', { alert_words: ['APPLE', 'durian'] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.alert_words).toEqual(['banana', 'cherry']);
  });
});

describe('Alert words belong to their owner', () => {
  it('are listed, changed and announced for the owner only', async () => {
    const aliceQueue = await queue(t.client(alice));
    const bobQueue = await queue(t.client(bob));
    await t.client(alice).post('/users/me/alert_words', { alert_words: ['secret project'] });
    await t.client(bob).delete('/users/me/alert_words', { alert_words: ['secret project'] });
    expect(await words(t.client(alice))).toEqual(['secret project']);
    expect(await words(t.client(bob))).toEqual([]);
    expect(await allEvents(t.client(alice), aliceQueue)).toEqual([{ type: 'alert_words', alert_words: ['secret project'], id: 0 }]);
    // Bob's own (empty) change reaches Bob only.
    expect(await allEvents(t.client(bob), bobQueue)).toEqual([{ type: 'alert_words', alert_words: [], id: 0 }]);
  });

  it('are in the register response under alert_words', async () => {
    const dave = await makeUser(t);
    await t.client(dave).post('/users/me/alert_words', { alert_words: ['deploy'] });
    const res = await t.client(dave).post('/register', { fetch_event_types: ['alert_words'] });
    expect(res.body.alert_words).toEqual(['deploy']);
  });
});

describe('Alert words through GraphQL', () => {
  it('list, add and remove with the same rules', async () => {
    const erin = await makeUser(t);
    // Of spellings repeated in one request, the last is kept (as Zulip's add_user_alert_words does).
    const added = await ok(t, 'mutation($w: [String!]!) { addAlertWords(alertWords: $w) }', { w: [' Ops ', 'ops', 'oncall'] }, erin);
    expect(added.addAlertWords).toEqual(['ops', 'oncall']);
    const removed = await ok(t, 'mutation($w: [String!]!) { removeAlertWords(alertWords: $w) }', { w: ['OPS'] }, erin);
    expect(removed.removeAlertWords).toEqual(['oncall']);
    expect((await ok(t, '{ alertWords }', {}, erin)).alertWords).toEqual(['oncall']);
    const { error } = await fails(t, 'mutation($w: [String!]!) { addAlertWords(alertWords: $w) }', { w: ['z'.repeat(101)] }, erin);
    expect(error.extensions?.code).toBe('BAD_REQUEST');
    expect(error.message).toBe('alert_words[0] is too long (limit: 100 characters)');
  });
});

describe('Messages containing an alert word', () => {
  it('carry has_alert_word for the word\'s owner (not the sender), at word boundaries, and match is:alerted', async () => {
    const frank = await makeUser(t);
    const gina = await makeUser(t);
    await t.client(gina).post('/users/me/alert_words', { alert_words: ['Deploy'] });
    await t.client(frank).post('/users/me/alert_words', { alert_words: ['deploy'] });
    const q = await registerQueue(t.client(gina), { event_types: ['message'] });
    const send = async (content: string) => (await t.client(frank).post('/messages', { type: 'direct', to: [gina.userId], content })).body.id as number;
    const hit = await send('(deploy) starts at noon');
    const miss = await send('redeployment is tomorrow');
    const flags = async (viewer: MadeUser, id: number) => (await t.client(viewer).get(`/messages/${id}`)).body.message.flags as string[];
    expect(await flags(gina, hit)).toContain('has_alert_word');
    expect(await flags(gina, miss)).not.toContain('has_alert_word');
    expect(await flags(frank, hit)).not.toContain('has_alert_word');
    const delivered = await allEvents(t.client(gina), q.queue_id);
    const byId = new Map(delivered.filter((e) => e.type === 'message').map((e) => [e.message.id, e.flags]));
    expect(byId.get(hit)).toContain('has_alert_word');
    expect(byId.get(miss)).not.toContain('has_alert_word');
    const alerted = await t.client(gina).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'is', operand: 'alerted' }] });
    expect(alerted.body.messages.map((m: { id: number }) => m.id)).toEqual([hit]);
  });
});
