// Code playgrounds (POST/DELETE /realm/playgrounds, realm_playgrounds events and register state) and
// POST /users/me/api_key/regenerate.
import { describe, expect, it } from 'vitest';
import { makeUser, makeOtherRealmOwner, type MadeUser } from '../support/factories.ts';
import { fails, ok } from '../graphql/helpers.ts';
import { allEvents, registerQueue, withoutIds } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer({ scheduledPollMs: 0 });
const { admin, member } = useTeam(t, ['admin', 'member']);

const playgroundsOf = async (who: MadeUser) => (await t.client(who).post('/register', { fetch_event_types: ['realm_playgrounds'] })).body.realm_playgrounds;

describe('/realm/playgrounds', () => {
  it('administrators add and remove playgrounds; everyone gets the whole list', async () => {
    const watcher = (await registerQueue(t.client(member), { event_types: ['realm_playgrounds'] })).queue_id;
    const res = await t.client(admin).post('/realm/playgrounds', { name: ' Python playground ', pygments_language: 'Python', url_template: 'https://python.example.com?code={code}' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const entry = { id: res.body.id, name: 'Python playground', pygments_language: 'Python', url_template: 'https://python.example.com?code={code}' };
    expect(await playgroundsOf(member)).toEqual([entry]);
    expect((await t.client(admin).delete(`/realm/playgrounds/${res.body.id}`)).status).toBe(200);
    expect(await playgroundsOf(member)).toEqual([]);
    expect(withoutIds(await allEvents(t.client(member), watcher, { keepHeartbeats: true }))).toEqual([
      { type: 'realm_playgrounds', realm_playgrounds: [entry] },
      { type: 'realm_playgrounds', realm_playgrounds: [] },
    ]);
  });

  it('checks names, languages and templates as Zulip does', async () => {
    const add = (params: Record<string, unknown>) => t.client(admin).post('/realm/playgrounds', { name: 'P', pygments_language: 'Rust', url_template: 'https://play.example.com/?c={code}', ...params });
    expect((await add({ pygments_language: 'Rust<script>' })).body.msg).toBe('Invalid characters in pygments language');
    expect((await add({ url_template: 'https://play.example.com/?c={code' })).body.msg).toBe('Invalid URL template.');
    expect((await add({ url_template: 'https://play.example.com/?c={source}' })).body.msg).toBe('"code" should be the only variable present in the URL template');
    expect((await add({ name: 'x'.repeat(65) })).body.msg).toBe('name is too long (limit: 64 characters)');
    expect((await add({})).status).toBe(200);
    expect((await add({})).body.msg).toBe('Realm playground with this Realm, Pygments language and Name already exists.');
    expect((await t.client(admin).post('/realm/playgrounds', { name: 'P' })).body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING' });
  });

  it('is for administrators, and only within the organization', async () => {
    expect((await t.client(member).post('/realm/playgrounds', { name: 'M', pygments_language: 'Go', url_template: 'https://go.example.com/{code}' })).body)
      .toMatchObject({ code: 'UNAUTHORIZED_PRINCIPAL' });
    const id = (await t.client(admin).post('/realm/playgrounds', { name: 'G', pygments_language: 'Go', url_template: 'https://go.example.com/{code}' })).body.id;
    expect((await t.client(member).delete(`/realm/playgrounds/${id}`)).body).toMatchObject({ code: 'UNAUTHORIZED_PRINCIPAL' });
    const other = await makeOtherRealmOwner(t, 'playgrounds');
    expect((await t.client(other, other.host).delete(`/realm/playgrounds/${id}`)).body.msg).toBe('Invalid playground');
    expect((await t.client(admin).delete('/realm/playgrounds/999999')).body.msg).toBe('Invalid playground');
    expect((await playgroundsOf(member)).map((p: any) => p.id)).toContain(id);
  });

  it('through GraphQL', async () => {
    const data = await ok(t, 'mutation { addRealmPlayground(name: "JS", pygmentsLanguage: "JavaScript", urlTemplate: "https://js.example.com/#{code}") }', {}, admin);
    const list = (await ok(t, '{ realmPlaygrounds { id name pygmentsLanguage urlTemplate } }', {}, member)).realmPlaygrounds;
    expect(list).toContainEqual({ id: data.addRealmPlayground, name: 'JS', pygmentsLanguage: 'JavaScript', urlTemplate: 'https://js.example.com/#{code}' });
    const { error } = await fails(t, `mutation { removeRealmPlayground(playgroundId: ${data.addRealmPlayground}) }`, {}, member);
    expect(error.extensions?.code).toBe('UNAUTHORIZED_PRINCIPAL');
  });
});

describe('POST /users/me/api_key/regenerate', () => {
  it('gives a new key at once; the old one is refused', async () => {
    const carol = await makeUser(t);
    const res = await t.client(carol).post('/users/me/api_key/regenerate');
    expect(res.status).toBe(200);
    expect(res.body.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(res.body.api_key).not.toBe(carol.apiKey);
    expect((await t.client(carol).get('/users/me')).status).toBe(401);
    expect((await t.client({ ...carol, apiKey: res.body.api_key }).get('/users/me')).status).toBe(200);
    const data = await ok(t, 'mutation { regenerateApiKey }', {}, { ...carol, apiKey: res.body.api_key });
    expect((await t.client({ ...carol, apiKey: data.regenerateApiKey }).get('/users/me')).status).toBe(200);
  });
});
