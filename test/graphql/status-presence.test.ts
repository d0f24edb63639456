// Status, custom emoji and presence through GraphQL: the same rules as the REST API.
import { describe, expect, it } from 'vitest';
import { fails, ok } from './helpers.ts';
import { useBot, useOtherRealmOwner, useTeam, useTestServer } from '../support/fixtures.ts';

const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const t = useTestServer();
const { alice, bob, admin, guest } = useTeam(t, ['alice', 'bob', 'admin', 'guest']);
const bot = useBot(t, alice, { fullName: 'A Bot' });
const boss = useOtherRealmOwner(t, 'other');

const STATUS = `query($userId: Int!) { userStatus(userId: $userId) { away statusText emojiName emojiCode reactionType } }`;
const UPDATE = `mutation($statusText: String, $emojiName: String, $emojiCode: String, $reactionType: String, $away: Boolean) {
  updateStatus(statusText: $statusText, emojiName: $emojiName, emojiCode: $emojiCode, reactionType: $reactionType, away: $away) }`;
const UPDATE_OTHER = `mutation($userId: Int!, $statusText: String) { updateUserStatus(userId: $userId, statusText: $statusText) }`;
const ADD_EMOJI = `mutation($name: String!, $files: [FileUpload!]!) { addCustomEmoji(name: $name, files: $files) { id name sourceUrl stillUrl deactivated authorId } }`;
const LIST_EMOJI = `{ customEmoji { id name deactivated authorId } }`;
const PRESENCE = `mutation($status: String!, $pingOnly: Boolean, $lastUpdateId: Float) {
  updatePresence(status: $status, pingOnly: $pingOnly, lastUpdateId: $lastUpdateId) { presences { userId email activeTimestamp idleTimestamp legacyStatus updateId } presenceLastUpdateId serverTimestamp } }`;

describe('user status', () => {
  it('updateStatus changes only what is passed; userStatus reads it', async () => {
    await ok(t, UPDATE, { statusText: 'busy', emojiName: 'car' }, alice);
    await ok(t, UPDATE, { statusText: 'very busy' }, alice);
    const data = await ok(t, STATUS, { userId: alice.userId }, bob);
    expect(data.userStatus).toEqual({ away: null, statusText: 'very busy', emojiName: 'car', emojiCode: '1f697', reactionType: 'unicode_emoji' });
  });

  it('refuses invalid statuses with Zulip\'s errors, writing nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'Client did not pass any new values.'],
      [{ statusText: 'z'.repeat(61) }, 'status_text is too long (limit: 60 characters)'],
      [{ statusText: 'x', emojiCode: '1f697' }, 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
      [{ emojiName: 'no_such_emoji' }, "Emoji 'no_such_emoji' does not exist"],
      [{ emojiName: 'car', emojiCode: '1f4bb', reactionType: 'unicode_emoji' }, 'Invalid emoji name.'],
      [{ emojiName: 'car', emojiCode: '1', reactionType: 'realm_emoji' }, 'Invalid custom emoji.'],
    ];
    for (const [vars, msg] of cases) {
      const { error } = await fails(t, UPDATE, vars, alice);
      expect(error.message).toBe(msg);
      expect(error.extensions).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 400 });
    }
    expect((await ok(t, STATUS, { userId: alice.userId }, alice)).userStatus.statusText).toBe('very busy');
  });

  it('away toggles presence sharing, shown as away in the status', async () => {
    await ok(t, UPDATE, { away: true }, bob);
    expect((await ok(t, STATUS, { userId: bob.userId }, alice)).userStatus.away).toBe(true);
    await ok(t, UPDATE, { away: false }, bob);
    expect((await ok(t, STATUS, { userId: bob.userId }, alice)).userStatus.away).toBeNull();
  });

  it('updateUserStatus is for administrators only', async () => {
    await ok(t, UPDATE_OTHER, { userId: bob.userId, statusText: 'set by admin' }, admin);
    for (const actor of [alice, guest]) {
      const { error } = await fails(t, UPDATE_OTHER, { userId: bob.userId, statusText: 'nope' }, actor);
      expect(error.message).toBe('Insufficient permission');
    }
    expect((await ok(t, STATUS, { userId: bob.userId }, alice)).userStatus.statusText).toBe('set by admin');
  });

  it('is not for bots, anonymous callers or other organizations', async () => {
    expect((await fails(t, UPDATE, { statusText: 'beep' }, bot)).error.message).toBe('This endpoint does not accept bot requests.');
    expect((await fails(t, UPDATE, { statusText: 'x' })).error.extensions?.code).toBe('UNAUTHORIZED');
    expect((await fails(t, STATUS, { userId: alice.userId }, boss, 'other.localhost')).error.message).toBe('No such user');
    expect((await fails(t, UPDATE_OTHER, { userId: alice.userId, statusText: 'x' }, boss, 'other.localhost')).error.message).toBe('No such user');
  });
});

describe('custom emoji', () => {
  it('addCustomEmoji takes the file as base64; customEmoji lists it; deactivateCustomEmoji retires it', async () => {
    const data = await ok(t, ADD_EMOJI, { name: 'octo', files: [{ fileName: 'octo.png', contentType: 'image/png', base64: PNG_BASE64 }] }, alice);
    expect(data.addCustomEmoji).toMatchObject({ name: 'octo', deactivated: false, authorId: alice.userId, stillUrl: null });
    expect(data.addCustomEmoji.sourceUrl).toMatch(new RegExp(`/emoji/images/${data.addCustomEmoji.id}\\.png$`));
    expect((await ok(t, LIST_EMOJI, {}, bob)).customEmoji).toContainEqual({ id: data.addCustomEmoji.id, name: 'octo', deactivated: false, authorId: alice.userId });
    expect((await fails(t, `mutation { deactivateCustomEmoji(name: "octo") }`, {}, bob)).error.message).toBe('Must be an organization administrator or emoji author');
    await ok(t, `mutation { deactivateCustomEmoji(name: "octo") }`, {}, alice);
    const missing = await fails(t, `mutation { deactivateCustomEmoji(name: "octo") }`, {}, alice);
    expect(missing.error.extensions).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 404 });
  });

  it('applies the upload rules', async () => {
    const file = { fileName: 'x.png', base64: PNG_BASE64 };
    expect((await fails(t, ADD_EMOJI, { name: 'none', files: [] }, alice)).error.message).toBe('You must upload exactly one file.');
    expect((await fails(t, ADD_EMOJI, { name: 'Bad', files: [file] }, alice)).error.message).toMatch(/^Emoji names must contain only/);
    expect((await fails(t, ADD_EMOJI, { name: 'guesty', files: [file] }, guest)).error.message).toBe('Not allowed for guest users');
    expect((await fails(t, ADD_EMOJI, { name: 'text', files: [{ fileName: 'x.png', base64: Buffer.from('plain text').toString('base64') }] }, alice)).error.message).toBe('Invalid image format');
    expect((await ok(t, LIST_EMOJI, {}, alice)).customEmoji.map((e: { name: string }) => e.name)).not.toContain('guesty');
  });

  it('keeps each organization\'s emoji to itself', async () => {
    await ok(t, ADD_EMOJI, { name: 'ours', files: [{ fileName: 'o.png', base64: PNG_BASE64 }] }, alice);
    expect((await ok(t, LIST_EMOJI, {}, boss, 'other.localhost')).customEmoji).toEqual([]);
    expect((await fails(t, `mutation { deactivateCustomEmoji(name: "ours") }`, {}, boss, 'other.localhost')).error.message).toBe("Emoji 'ours' does not exist");
  });
});

describe('presence', () => {
  it('updatePresence records and returns presence; pingOnly returns null', async () => {
    await ok(t, PRESENCE, { status: 'active' }, bob);
    const data = await ok(t, PRESENCE, { status: 'active' }, alice);
    const ids = data.updatePresence.presences.map((p: { userId: number }) => p.userId);
    expect(ids).toEqual(expect.arrayContaining([alice.userId, bob.userId]));
    expect(data.updatePresence.presenceLastUpdateId).toBeGreaterThan(0);
    expect((await ok(t, PRESENCE, { status: 'idle', pingOnly: true }, alice)).updatePresence).toBeNull();
    const since = await ok(t, `query($id: Float) { presences(lastUpdateId: $id) { presences { userId } presenceLastUpdateId } }`, { id: data.updatePresence.presenceLastUpdateId }, bob);
    expect(since.presences.presences.map((p: { userId: number }) => p.userId)).toEqual([alice.userId]);
  });

  it('userPresence answers by ID or email, with Zulip\'s errors', async () => {
    const byEmail = await ok(t, `query($u: String!) { userPresence(userIdOrEmail: $u) { userId legacyStatus } }`, { u: bob.email }, alice);
    expect(byEmail.userPresence.userId).toBe(bob.userId);
    const q = `query($u: String!) { userPresence(userIdOrEmail: $u) { userId } }`;
    expect((await fails(t, q, { u: String(bot.userId) }, alice)).error.message).toBe('Presence is not supported for bot users.');
    expect((await fails(t, q, { u: String(admin.userId) }, alice)).error.message).toBe(`No presence data for ${admin.userId}`);
    expect((await fails(t, q, { u: String(bob.userId) }, boss, 'other.localhost')).error.message).toBe('No such user');
  });

  it('refuses bots and bad statuses', async () => {
    expect((await fails(t, PRESENCE, { status: 'active' }, bot)).error.message).toBe('This endpoint does not accept bot requests.');
    expect((await fails(t, PRESENCE, { status: 'dancing' }, alice)).error.message).toBe('Invalid status: dancing');
    expect((await fails(t, PRESENCE, { status: 'active', lastUpdateId: 2.5 }, alice)).error.message).toBe('last_update_id is not an integer');
  });

  it('other organizations see none of it', async () => {
    const theirs = await ok(t, `{ presences { presences { userId } } }`, {}, boss, 'other.localhost');
    expect(theirs.presences.presences).toEqual([]);
  });
});
