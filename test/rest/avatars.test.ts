// Avatars and the organization's icon and logos: POST/DELETE /users/me/avatar, POST/DELETE
// /realm/icon and /realm/logo, the URLs records, register and events give, and the images served
// at them with no outside service (generated defaults; Gravatar only with PARLEY_GRAVATAR).
import { describe, expect, it } from 'vitest';
import http from 'node:http';
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { makeOtherRealmOwner, makeUser, sendToChannel, makeChannel, updateRealm } from '../support/factories.ts';
import type { Credentials } from '../support/client.ts';
import { multipart, PNG } from '../clients/support.ts';
import { only, openQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer();
const { alice, bob, admin } = useTeam(t, ['alice', 'bob', 'admin']);

/** A real photo-like image: 300×200, a red left half and a blue right half. */
async function picture(width = 300, height = 200): Promise<Buffer> {
  const left = await sharp({ create: { width: width / 2, height, channels: 3, background: '#ff0000' } }).png().toBuffer();
  return sharp({ create: { width, height, channels: 3, background: '#0000ff' } }).composite([{ input: left, left: 0, top: 0 }]).jpeg().toBuffer();
}

/** GET of a URL outside /api/v1 without credentials, at the root organization or `host`. */
function fetchImage(url: string, host?: string) {
  return new Promise<{ status: number; type: string | undefined; bytes: Buffer }>((resolve, reject) => {
    http.get(new URL(url, t.baseUrl), { headers: host ? { host } : {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], bytes: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

async function imageSize(bytes: Buffer) {
  const meta = await sharp(bytes).metadata();
  return { width: meta.width, height: meta.height, format: meta.format };
}

function uploadAvatar(who: Credentials, bytes: Buffer, name = 'me.jpg') {
  return multipart(t.baseUrl, 'POST', '/users/me/avatar', who, {}, [{ name: 'file', filename: name, bytes }]);
}

describe('default avatars', () => {
  it('are drawn by the server: records, messages and register point at them even with client_gravatar', async () => {
    const users = await t.client(bob).get('/users', { client_gravatar: 'true' });
    const record = users.body.members.find((m: any) => m.user_id === alice.userId);
    expect(record.avatar_url).toBe(`/user_avatars/${t.realmId}/default/${alice.userId}.png?version=1`);
    await makeChannel(t.client(alice), 'avatars', { principals: [alice.userId, bob.userId] });
    await sendToChannel(t.client(alice), 'avatars', 'hi', 'hello');
    const messages = await t.client(bob).get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, client_gravatar: 'true' });
    expect(messages.body.messages[0].avatar_url).toBe(record.avatar_url);
    const reg = await t.client(alice).post('/register', { fetch_event_types: '["realm_user"]' });
    expect(reg.body).toMatchObject({
      avatar_source: 'G',
      avatar_url: `/user_avatars/${t.realmId}/default/${alice.userId}.png?version=1`,
      avatar_url_medium: `/user_avatars/${t.realmId}/default/${alice.userId}-medium.png?version=1`,
    });
  });

  it('are PNG identicons of 100 and 500 pixels, different for different users, without credentials', async () => {
    const small = await fetchImage(`/user_avatars/${t.realmId}/default/${alice.userId}.png?version=1`);
    expect(small.status).toBe(200);
    expect(small.type).toBe('image/png');
    expect(await imageSize(small.bytes)).toEqual({ width: 100, height: 100, format: 'png' });
    const medium = await fetchImage(`/user_avatars/${t.realmId}/default/${alice.userId}-medium.png`);
    expect(await imageSize(medium.bytes)).toEqual({ width: 500, height: 500, format: 'png' });
    const other = await fetchImage(`/user_avatars/${t.realmId}/default/${bob.userId}.png`);
    expect(other.bytes.equals(small.bytes)).toBe(false);
  });

  it('are served only by the organization the host names', async () => {
    await makeOtherRealmOwner(t, 'elsewhere');
    expect((await fetchImage(`/user_avatars/${t.realmId}/default/${alice.userId}.png`, 'elsewhere.localhost')).status).toBe(404);
  });

  it('serve the placeholder avatar of users a guest may not see', async () => {
    const unknown = await fetchImage('/static/images/unknown-user-avatar.png');
    expect(unknown.status).toBe(200);
    expect((await imageSize(unknown.bytes)).format).toBe('png');
  });
});

describe('POST /users/me/avatar', () => {
  it('stores the image as 100 and 500 pixel squares, raises the version and tells everyone', async () => {
    const queue = await openQueue(t.client(bob), { event_types: '["realm_user"]' });
    const res = await uploadAvatar(alice, await picture());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const url = res.body.avatar_url as string;
    expect(url).toMatch(new RegExp(`^/user_avatars/${t.realmId}/[0-9a-f]{40}\\.png\\?version=2$`));

    const small = await fetchImage(url);
    expect(small.status).toBe(200);
    expect(await imageSize(small.bytes)).toEqual({ width: 100, height: 100, format: 'png' });
    // Cropped to the centre: the left edge is red, the right edge blue.
    const { data } = await sharp(small.bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const red = (i: number) => data[i * 3]! > 240 && data[i * 3 + 2]! < 15;
    const blue = (i: number) => data[i * 3]! < 15 && data[i * 3 + 2]! > 240;
    expect([red(0), blue(99)]).toEqual([true, true]);
    const medium = await fetchImage(url.replace('.png', '-medium.png'));
    expect(await imageSize(medium.bytes)).toEqual({ width: 500, height: 500, format: 'png' });

    const event = only(await queue.events(), 'realm_user', 'update');
    expect(event.person).toEqual({
      user_id: alice.userId, avatar_source: 'U', avatar_version: 2,
      avatar_url: url, avatar_url_medium: url.replace('.png', '-medium.png'),
    });
    const users = await t.client(bob).get('/users', { client_gravatar: 'true' });
    expect(users.body.members.find((m: any) => m.user_id === alice.userId)).toMatchObject({ avatar_url: url, avatar_version: 2 });
    const me = await t.client(alice).get('/users/me');
    expect(me.body).toMatchObject({ avatar_url: url, avatar_version: 2 });
  });

  it('replaces the previous upload, whose files go', async () => {
    const first = (await t.client(alice).get('/users/me')).body.avatar_url as string;
    const res = await uploadAvatar(alice, PNG, 'dot.png');
    expect(res.status).toBe(200);
    expect(res.body.avatar_url).not.toBe(first);
    expect((await fetchImage(first)).status).toBe(404);
    expect((await fetchImage(res.body.avatar_url)).status).toBe(200);
  });

  it('takes exactly one image, within max_avatar_file_size_mib', async () => {
    const none = await multipart(t.baseUrl, 'POST', '/users/me/avatar', bob, {});
    expect(none.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'You must upload exactly one avatar.' });
    const two = await multipart(t.baseUrl, 'POST', '/users/me/avatar', bob, {}, [
      { name: 'a', filename: 'a.png', bytes: PNG }, { name: 'b', filename: 'b.png', bytes: PNG },
    ]);
    expect(two.body.msg).toBe('You must upload exactly one avatar.');
    const text = await uploadAvatar(bob, Buffer.from('not an image'), 'x.png');
    expect(text.status).toBe(400);
    expect(text.body).toMatchObject({ code: 'BAD_IMAGE', msg: 'Could not decode image; did you upload an image file?' });
    // An empty file (which the image library refuses as it is constructed) is no image either.
    const empty = await uploadAvatar(bob, Buffer.alloc(0), 'empty.png');
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ code: 'BAD_IMAGE', msg: 'Could not decode image; did you upload an image file?' });
    const big = await uploadAvatar(bob, Buffer.alloc(5 * 1024 * 1024 + 1, 1), 'big.png');
    expect(big.status).toBe(400);
    expect(big.body.msg).toBe('Uploaded file is larger than the allowed limit of 5 MiB');
    const reg = await t.client(bob).post('/register', { fetch_event_types: '["realm_user"]' });
    expect(reg.body.avatar_source).toBe('G');
  });
});

describe('DELETE /users/me/avatar', () => {
  it('returns to the default avatar, raising the version, and removes the files', async () => {
    const uploaded = (await t.client(alice).get('/users/me')).body as { avatar_url: string; avatar_version: number };
    const queue = await openQueue(t.client(bob), { event_types: '["realm_user"]' });
    const res = await t.client(alice).delete('/users/me/avatar');
    expect(res.status).toBe(200);
    const version = uploaded.avatar_version + 1;
    expect(res.body.avatar_url).toBe(`/user_avatars/${t.realmId}/default/${alice.userId}.png?version=${version}`);
    expect(only(await queue.events(), 'realm_user', 'update').person).toMatchObject({ user_id: alice.userId, avatar_source: 'G', avatar_version: version });
    expect((await fetchImage(uploaded.avatar_url)).status).toBe(404);
    // Nothing to delete: nothing changes.
    const again = await t.client(alice).delete('/users/me/avatar');
    expect(again.body.avatar_url).toBe(res.body.avatar_url);
  });
});

describe('bot avatars (POST /bots, PATCH /bots/{id})', () => {
  it('take the request\'s one image, from the bot\'s owner or an administrator', async () => {
    const created = await multipart(t.baseUrl, 'POST', '/bots', bob, { full_name: 'Pic Bot', short_name: 'pic' }, [{ name: 'f', filename: 'b.jpg', bytes: await picture() }]);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.avatar_url).toMatch(new RegExp(`^/user_avatars/${t.realmId}/[0-9a-f]{40}\\.png\\?version=2$`));
    expect(await imageSize((await fetchImage(created.body.avatar_url)).bytes)).toEqual({ width: 100, height: 100, format: 'png' });
    const botId = created.body.user_id as number;

    const queue = await openQueue(t.client(bob), { event_types: '["realm_bot","realm_user"]' });
    const changed = await multipart(t.baseUrl, 'PATCH', `/bots/${botId}`, admin, {}, [{ name: 'f', filename: 'dot.png', bytes: PNG }]);
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.avatar_url).toMatch(/\?version=3$/);
    const events = await queue.events();
    expect(only(events, 'realm_bot', 'update').bot).toEqual({ user_id: botId, avatar_url: changed.body.avatar_url });
    expect(only(events, 'realm_user', 'update').person).toMatchObject({ user_id: botId, avatar_source: 'U', avatar_version: 3 });
    expect((await fetchImage(created.body.avatar_url)).status).toBe(404);

    const stranger = await multipart(t.baseUrl, 'PATCH', `/bots/${botId}`, alice, {}, [{ name: 'f', filename: 'dot.png', bytes: PNG }]);
    expect(stranger.status).toBe(400);
    const two = await multipart(t.baseUrl, 'PATCH', `/bots/${botId}`, bob, {}, [
      { name: 'a', filename: 'a.png', bytes: PNG }, { name: 'b', filename: 'b.png', bytes: PNG },
    ]);
    expect(two.body.msg).toBe('You may only upload one file at a time.');
    const bad = await multipart(t.baseUrl, 'POST', '/bots', bob, { full_name: 'Bad Bot', short_name: 'bad' }, [{ name: 'f', filename: 'x.png', bytes: Buffer.from('nope') }]);
    expect(bad.body.code).toBe('BAD_IMAGE');
    // A bad image creates no bot.
    expect((await t.client(bob).get('/bots')).body.bots.map((b: any) => b.full_name)).toEqual(['Pic Bot']);
  });
});

describe('avatar_changes_disabled', () => {
  it('stops members, not administrators, from changing their avatar', async () => {
    await updateRealm(t, { avatar_changes_disabled: true });
    try {
      const refused = await uploadAvatar(bob, PNG, 'dot.png');
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Avatar changes are disabled in this organization.' });
      expect((await t.client(bob).delete('/users/me/avatar')).body.msg).toBe('Avatar changes are disabled in this organization.');
      expect((await uploadAvatar(admin, PNG, 'dot.png')).status).toBe(200);
      expect((await t.client(admin).delete('/users/me/avatar')).status).toBe(200);
    } finally {
      await updateRealm(t, { avatar_changes_disabled: false });
    }
  });
});

describe('Gravatar, when the operator enables it', () => {
  const g = useTestServer({ gravatarEnabled: true });

  it('links default avatars to Gravatar and lets clients compute them', async () => {
    const carol = await makeUser(g, { fullName: 'Carol', email: 'Carol@Example.com' });
    const computed = await g.client(carol).get('/users', { client_gravatar: 'true' });
    expect(computed.body.members.find((m: any) => m.user_id === carol.userId).avatar_url).toBeNull();
    const given = await g.client(carol).get('/users', { client_gravatar: 'false' });
    expect(given.body.members.find((m: any) => m.user_id === carol.userId).avatar_url)
      .toBe(`https://secure.gravatar.com/avatar/${createHash('md5').update('carol@example.com').digest('hex')}?d=identicon&version=1`);
    const reg = await g.client(carol).post('/register', { fetch_event_types: '["realm_user"]' });
    expect(reg.body.avatar_url_medium).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&s=500&version=1$/);
  });
});

describe('organization icon', () => {
  it('is generated by default and served at the URL register and server_settings give', async () => {
    const reg = await t.client(alice).post('/register', { fetch_event_types: '["realm"]' });
    expect(reg.body).toMatchObject({ realm_icon_source: 'G', realm_icon_url: `/user_avatars/${t.realmId}/realm/default-icon.png?version=0` });
    const settings = await t.client().get('/server_settings');
    expect(settings.body.realm_icon).toBe(`http://localhost:9991${reg.body.realm_icon_url}`);
    const icon = await fetchImage(reg.body.realm_icon_url);
    expect(icon.status).toBe(200);
    expect(await imageSize(icon.bytes)).toEqual({ width: 100, height: 100, format: 'png' });
  });

  it('is uploaded by administrators only, as a 100-pixel square, announced to everyone', async () => {
    const refused = await multipart(t.baseUrl, 'POST', '/realm/icon', alice, {}, [{ name: 'f', filename: 'i.jpg', bytes: await picture() }]);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
    const queue = await openQueue(t.client(alice), { event_types: '["realm"]' });
    const res = await multipart(t.baseUrl, 'POST', '/realm/icon', admin, {}, [{ name: 'f', filename: 'i.jpg', bytes: await picture() }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.icon_url).toBe(`/user_avatars/${t.realmId}/realm/icon.png?version=2`);
    expect(only(await queue.events(), 'realm', 'update_dict')).toMatchObject({ property: 'icon', data: { icon_source: 'U', icon_url: res.body.icon_url } });
    const icon = await fetchImage(res.body.icon_url);
    expect(await imageSize(icon.bytes)).toEqual({ width: 100, height: 100, format: 'png' });
    const reg = await t.client(alice).post('/register', { fetch_event_types: '["realm"]' });
    expect(reg.body).toMatchObject({ realm_icon_source: 'U', realm_icon_url: res.body.icon_url });
    const two = await multipart(t.baseUrl, 'POST', '/realm/icon', admin, {}, []);
    expect(two.body.msg).toBe('You must upload exactly one icon.');
  });

  it('is removed by administrators, back to the default', async () => {
    expect((await t.client(alice).delete('/realm/icon')).body.code).toBe('UNAUTHORIZED_PRINCIPAL');
    const queue = await openQueue(t.client(alice), { event_types: '["realm"]' });
    const res = await t.client(admin).delete('/realm/icon');
    expect(res.body.icon_url).toBe(`/user_avatars/${t.realmId}/realm/default-icon.png?version=0`);
    expect(only(await queue.events(), 'realm', 'update_dict')).toMatchObject({ property: 'icon', data: { icon_source: 'G', icon_url: res.body.icon_url } });
  });
});

describe('organization logos', () => {
  it('default to the server\'s own, served as an image', async () => {
    const reg = await t.client(alice).post('/register', { fetch_event_types: '["realm"]' });
    expect(reg.body).toMatchObject({ realm_logo_source: 'D', realm_night_logo_source: 'D' });
    const logo = await fetchImage(reg.body.realm_logo_url);
    expect(logo.status).toBe(200);
    expect(logo.type).toMatch(/^image\/svg\+xml/);
    expect((await imageSize(logo.bytes)).format).toBe('svg');
  });

  it('are uploaded by administrators, day and night apart, shrunk to fit 800×100', async () => {
    const wide = await picture(1600, 400);
    const refused = await multipart(t.baseUrl, 'POST', '/realm/logo', bob, { night: 'false' }, [{ name: 'f', filename: 'l.jpg', bytes: wide }]);
    expect(refused.body.code).toBe('UNAUTHORIZED_PRINCIPAL');
    const queue = await openQueue(t.client(bob), { event_types: '["realm"]' });
    const day = await multipart(t.baseUrl, 'POST', '/realm/logo', admin, { night: 'false' }, [{ name: 'f', filename: 'l.jpg', bytes: wide }]);
    expect(day.status, JSON.stringify(day.body)).toBe(200);
    const night = await multipart(t.baseUrl, 'POST', '/realm/logo', admin, { night: 'true' }, [{ name: 'f', filename: 'n.png', bytes: PNG }]);
    expect(night.status).toBe(200);
    const events = (await queue.events()).filter((e) => e.type === 'realm');
    expect(events).toMatchObject([
      { op: 'update_dict', property: 'logo', data: { logo_source: 'U', logo_url: `/user_avatars/${t.realmId}/realm/logo.png?version=2` } },
      { op: 'update_dict', property: 'night_logo', data: { night_logo_source: 'U', night_logo_url: `/user_avatars/${t.realmId}/realm/night_logo.png?version=2` } },
    ]);
    expect(await imageSize((await fetchImage(events[0]!.data.logo_url)).bytes)).toEqual({ width: 400, height: 100, format: 'png' });
    // Never enlarged.
    expect(await imageSize((await fetchImage(events[1]!.data.night_logo_url)).bytes)).toEqual({ width: 1, height: 1, format: 'png' });

    const removed = await t.client(admin).delete('/realm/logo', { night: 'true' });
    expect(removed.status).toBe(200);
    const reg = await t.client(bob).post('/register', { fetch_event_types: '["realm"]' });
    expect(reg.body).toMatchObject({ realm_logo_source: 'U', realm_night_logo_source: 'D', realm_logo_url: events[0]!.data.logo_url });
    expect((await t.client(admin).delete('/realm/logo')).body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING' });
  });
});
