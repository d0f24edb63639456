// Channel folders: GET /channel_folders, POST /channel_folders/create, PATCH /channel_folders/{id},
// PATCH /channel_folders (order), channel_folder events, register's channel_folders, and folder_id
// on channels; the same through GraphQL.
import { describe, expect, it } from 'vitest';
import { makeChannel, makeOtherRealmOwner, type MadeUser, updateRealm } from '../support/factories.ts';
import { fails, ok } from '../graphql/helpers.ts';
import { allEvents, registerQueue, withoutIds } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer({ scheduledPollMs: 0 });
const { admin, member } = useTeam(t, ['admin', 'member']);

const create = (who: MadeUser, name: string, description = '') => t.client(who).post('/channel_folders/create', { name, description });
const folderIds = async (who: MadeUser, includeArchived = false) =>
  (await t.client(who).get('/channel_folders', { include_archived: includeArchived })).body.channel_folders.map((f: any) => f.id);
const watch = async (who: MadeUser) => (await registerQueue(t.client(who), { event_types: ['channel_folder'] })).queue_id;
const eventsOf = async (who: MadeUser, queueId: string) => withoutIds(await allEvents(t.client(who), queueId, { keepHeartbeats: true }));

describe('POST /channel_folders/create', () => {
  it('creates a folder last in the order, with its rendered description, and tells everyone', async () => {
    const queue = await watch(member);
    const before = Math.floor(Date.now() / 1000);
    const res = await create(admin, 'Engineering', 'Channels for **engineers**');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = res.body.channel_folder_id;
    expect(id).toEqual(expect.any(Number));
    const folder = (await t.client(member).get('/channel_folders')).body.channel_folders.find((f: any) => f.id === id);
    expect(folder).toEqual({
      id, name: 'Engineering', description: 'Channels for **engineers**',
      rendered_description: '<p>Channels for <strong>engineers</strong></p>',
      order: expect.any(Number), date_created: expect.any(Number), creator_id: admin.userId, is_archived: false,
    });
    expect(folder.date_created).toBeGreaterThanOrEqual(before - 1);
    expect(await eventsOf(member, queue)).toEqual([{ type: 'channel_folder', op: 'add', channel_folder: folder }]);
    const register = (await t.client(member).post('/register', { fetch_event_types: ['channel_folders'] })).body.channel_folders;
    expect(register).toContainEqual(folder);

    const second = (await create(admin, 'Marketing')).body.channel_folder_id;
    const list = (await t.client(member).get('/channel_folders')).body.channel_folders;
    const orderOf = (fid: number) => list.find((f: any) => f.id === fid).order;
    expect(orderOf(second)).toBeGreaterThan(orderOf(id));
    expect(list.map((f: any) => f.id).indexOf(second)).toBeGreaterThan(list.map((f: any) => f.id).indexOf(id));
  });

  it('checks names as Zulip does: not blank, printable, at most 60 characters, unique ignoring case', async () => {
    expect((await create(admin, 'Design')).status).toBe(200);
    expect((await create(admin, 'dESIGN')).body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Channel folder \'dESIGN\' already exists' });
    expect((await create(admin, '   ')).body.msg).toBe('Channel folder name can\'t be empty.');
    expect((await create(admin, 'Bad\u0007name')).body.msg).toBe('Invalid character in channel folder name, at position 4.');
    expect((await create(admin, 'x'.repeat(61))).body.msg).toBe('name is too long (limit: 60 characters)');
    expect((await create(admin, 'x'.repeat(60))).status).toBe(200);
    expect((await create(admin, 'Long description', 'd'.repeat(1025))).body.msg).toBe('description is too long (limit: 1024 characters)');
    expect((await t.client(admin).post('/channel_folders/create', { name: 'No description' })).body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING' });
  });

  it('keeps one of two concurrent creations whose names differ only in case', async () => {
    const results = await Promise.all([create(admin, 'Racing'), create(admin, 'RACING'), create(admin, 'racing')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    for (const r of results.filter((r) => r.status === 400)) expect(r.body.msg).toMatch(/^Channel folder '(Racing|RACING|racing)' already exists$/);
    const names = (await t.client(admin).get('/channel_folders')).body.channel_folders.map((f: any) => f.name.toLowerCase());
    expect(names.filter((n: string) => n === 'racing')).toHaveLength(1);
  });

  it('is for administrators only', async () => {
    const res = await create(member, 'Members only');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
    const names = (await t.client(admin).get('/channel_folders', { include_archived: true })).body.channel_folders.map((f: any) => f.name);
    expect(names).not.toContain('Members only');
  });
});

describe('PATCH /channel_folders/{channel_folder_id}', () => {
  it('renames, redescribes, archives and unarchives, one event per change', async () => {
    const id = (await create(admin, 'Support', 'old')).body.channel_folder_id;
    const queue = await watch(member);
    const res = await t.client(admin).patch(`/channel_folders/${id}`, { name: 'Customer support', description: 'Help *them*' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await t.client(admin).patch(`/channel_folders/${id}`, { is_archived: true })).status).toBe(200);
    expect(await folderIds(member)).not.toContain(id);
    expect(await folderIds(member, true)).toContain(id);
    expect((await t.client(admin).patch(`/channel_folders/${id}`, { is_archived: false })).status).toBe(200);
    // A change of case alone is the folder's own name, not a clash.
    expect((await t.client(admin).patch(`/channel_folders/${id}`, { name: 'CUSTOMER SUPPORT' })).status).toBe(200);
    expect(await eventsOf(member, queue)).toEqual([
      { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { name: 'Customer support' } },
      { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { description: 'Help *them*', rendered_description: '<p>Help <em>them</em></p>' } },
      { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { is_archived: true } },
      { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { is_archived: false } },
      { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { name: 'CUSTOMER SUPPORT' } },
    ]);
    // Unchanged values change nothing and say nothing.
    const quiet = await watch(member);
    expect((await t.client(admin).patch(`/channel_folders/${id}`, { name: 'CUSTOMER SUPPORT', is_archived: false })).status).toBe(200);
    expect(await eventsOf(member, quiet)).toEqual([]);
  });

  it('refuses taken names, unknown folders, and archiving a folder that holds channels', async () => {
    const a = (await create(admin, 'Alpha')).body.channel_folder_id;
    await create(admin, 'Beta');
    expect((await t.client(admin).patch(`/channel_folders/${a}`, { name: 'beta' })).body.msg).toBe('Channel folder \'beta\' already exists');
    expect((await t.client(admin).patch('/channel_folders/999999', { name: 'Gamma' })).body.msg).toBe('Invalid channel folder ID');
    const channelId = await makeChannel(t.client(admin), 'alpha-channel', { folder_id: a });
    expect((await t.client(admin).patch(`/channel_folders/${a}`, { is_archived: true })).body.msg)
      .toBe('You need to remove all the channels from this folder to archive it.');
    expect((await t.client(admin).patch(`/streams/${channelId}`, { folder_id: JSON.stringify(null) })).status).toBe(200);
    expect((await t.client(admin).patch(`/channel_folders/${a}`, { is_archived: true })).status).toBe(200);
    // An archived folder takes no channels.
    expect((await t.client(admin).patch(`/streams/${channelId}`, { folder_id: a })).body.msg).toBe('Invalid channel folder ID');
  });

  it('is for administrators only', async () => {
    const id = (await create(admin, 'Locked')).body.channel_folder_id;
    const queue = await watch(member);
    for (const change of [{ name: 'Mine' }, { description: 'x' }, { is_archived: true }]) {
      expect((await t.client(member).patch(`/channel_folders/${id}`, change)).body).toMatchObject({ code: 'UNAUTHORIZED_PRINCIPAL' });
    }
    const folder = (await t.client(member).get('/channel_folders')).body.channel_folders.find((f: any) => f.id === id);
    expect(folder).toMatchObject({ name: 'Locked', description: '', is_archived: false });
    expect(await eventsOf(member, queue)).toEqual([]);
  });
});

describe('PATCH /channel_folders', () => {
  it('sets the order of every folder', async () => {
    const ids = await folderIds(admin, true);
    const reversed = [...ids].reverse();
    const queue = await watch(member);
    const res = await t.client(admin).patch('/channel_folders', { order: JSON.stringify(reversed) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await folderIds(member, true)).toEqual(reversed);
    const register = (await t.client(member).post('/register', { fetch_event_types: ['channel_folders'] })).body.channel_folders;
    expect(register.map((f: any) => f.id)).toEqual(reversed);
    expect(register.map((f: any) => f.order)).toEqual(reversed.map((_, i) => i));
    expect(await eventsOf(member, queue)).toEqual([{ type: 'channel_folder', op: 'reorder', order: reversed }]);
  });

  it('refuses an order that leaves out, repeats or adds a folder; members may not reorder', async () => {
    const ids = await folderIds(admin, true);
    const bad = [ids.slice(1), [...ids, ids[0]], [...ids, 999999]];
    for (const order of bad) {
      expect((await t.client(admin).patch('/channel_folders', { order: JSON.stringify(order) })).body.msg).toBe('Invalid order mapping.');
    }
    expect((await t.client(member).patch('/channel_folders', { order: JSON.stringify([...ids].reverse()) })).body)
      .toMatchObject({ code: 'UNAUTHORIZED_PRINCIPAL' });
    expect(await folderIds(admin, true)).toEqual(ids);
  });
});

describe('folder_id on channels', () => {
  it('puts new channels in a folder through POST /users/me/subscriptions and POST /channels/create', async () => {
    const folder = (await create(admin, 'New channels')).body.channel_folder_id;
    const viaSubscribe = await makeChannel(t.client(admin), 'in-folder-1', { folder_id: folder });
    const viaCreate = await t.client(admin).post('/channels/create', { name: 'in-folder-2', subscribers: JSON.stringify([admin.userId]), folder_id: folder });
    expect(viaCreate.status, JSON.stringify(viaCreate.body)).toBe(200);
    for (const id of [viaSubscribe, viaCreate.body.id]) {
      expect((await t.client(member).get(`/streams/${id}`)).body.stream.folder_id).toBe(folder);
    }
    expect((await t.client(admin).post('/channels/create', { name: 'in-folder-3', subscribers: JSON.stringify([admin.userId]), folder_id: 999999 })).body.msg)
      .toBe('Invalid channel folder ID');
  });
});

describe('spectators', () => {
  it('see in register only the folders holding web-public channels, and cannot list folders', async () => {
    const shown = (await create(admin, 'Public square')).body.channel_folder_id;
    const hidden = (await create(admin, 'Back office')).body.channel_folder_id;
    await makeChannel(t.client(admin), 'office', { folder_id: hidden });
    const db = t.db;
    const realm = await db.realm.findFirstOrThrow({ where: { stringId: '' } });
    await updateRealm(t, { enable_spectator_access: true });
    try {
      // Web-public channels are the owner's to create, and only with spectator access on.
      const made = await t.client(t.owner).post('/channels/create', {
        name: 'square', subscribers: JSON.stringify([t.owner.userId]), folder_id: shown, is_web_public: true,
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const res = await t.client().post('/register', { fetch_event_types: ['channel_folders'] });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.channel_folders.map((f: any) => f.id)).toEqual([shown]);
      expect((await t.client().get('/channel_folders')).status).toBe(401);
    } finally {
      await updateRealm(t, { enable_spectator_access: false });
    }
  });
});

describe('organizations', () => {
  it('keep their folders apart: lists, names, changes, order and folder_id', async () => {
    const other = await makeOtherRealmOwner(t, 'folders');
    const mine = (await create(admin, 'Shared name')).body.channel_folder_id;
    const outsider = t.client(other, other.host);
    const theirs = await outsider.post('/channel_folders/create', { name: 'shared NAME', description: '' });
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
    expect((await outsider.get('/channel_folders', { include_archived: true })).body.channel_folders.map((f: any) => f.id)).toEqual([theirs.body.channel_folder_id]);
    expect((await outsider.patch(`/channel_folders/${mine}`, { name: 'Taken over' })).body.msg).toBe('Invalid channel folder ID');
    expect((await outsider.patch('/channel_folders', { order: JSON.stringify([mine, theirs.body.channel_folder_id]) })).body.msg).toBe('Invalid order mapping.');
    const res = await outsider.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'outside' }]), folder_id: mine });
    expect(res.body.msg).toBe('Invalid channel folder ID');
    expect((await folderIds(admin)).includes(theirs.body.channel_folder_id)).toBe(false);
    const folder = (await t.client(admin).get('/channel_folders')).body.channel_folders.find((f: any) => f.id === mine);
    expect(folder.name).toBe('Shared name');
  });
});

describe('through GraphQL', () => {
  it('lists, creates, changes and reorders, administrators only', async () => {
    const id = (await ok(t, 'mutation { createChannelFolder(name: "GraphQL folder", description: "Via *GraphQL*") }', {}, admin)).createChannelFolder;
    const list = (await ok(t, '{ channelFolders { id name description renderedDescription order dateCreated creatorId isArchived } }', {}, member)).channelFolders;
    expect(list).toContainEqual({
      id, name: 'GraphQL folder', description: 'Via *GraphQL*', renderedDescription: '<p>Via <em>GraphQL</em></p>',
      order: expect.any(Number), dateCreated: expect.any(Number), creatorId: admin.userId, isArchived: false,
    });
    await ok(t, 'mutation($id: Int!) { updateChannelFolder(channelFolderId: $id, isArchived: true) }', { id }, admin);
    expect((await ok(t, '{ channelFolders { id } }', {}, member)).channelFolders.map((f: any) => f.id)).not.toContain(id);
    expect((await ok(t, '{ channelFolders(includeArchived: true) { id } }', {}, member)).channelFolders.map((f: any) => f.id)).toContain(id);
    const ids = (await ok(t, '{ channelFolders(includeArchived: true) { id } }', {}, admin)).channelFolders.map((f: any) => f.id);
    await ok(t, 'mutation($order: [Int!]!) { reorderChannelFolders(order: $order) }', { order: [...ids].reverse() }, admin);
    expect((await ok(t, '{ channelFolders(includeArchived: true) { id } }', {}, member)).channelFolders.map((f: any) => f.id)).toEqual([...ids].reverse());

    for (const mutation of [
      'mutation { createChannelFolder(name: "Nope", description: "") }',
      `mutation { updateChannelFolder(channelFolderId: ${id}, name: "Nope") }`,
      `mutation { reorderChannelFolders(order: [${ids.join(',')}]) }`,
    ]) {
      const { error } = await fails(t, mutation, {}, member);
      expect(error.extensions?.code).toBe('UNAUTHORIZED_PRINCIPAL');
    }
  });
});
