// Image previews of uploads, as Zulip renders them: the original's dimensions at once, a placeholder
// until the thumbnail is made in the background, then the thumbnail (an update_message event).
import { beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import sharp from 'sharp';
import { makeChannel, sendToChannel } from '../support/factories.ts';
import type { Credentials } from '../support/client.ts';
import { multipart } from '../clients/support.ts';
import { openQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const t = useTestServer();
const { alice, bob, carol } = useTeam(t, ['alice', 'bob', 'carol']);

const basic = (who: Credentials) => 'Basic ' + Buffer.from(`${who.email}:${who.apiKey}`).toString('base64');

function get(url: string, who?: Credentials) {
  return new Promise<{ status: number; type: string | undefined; bytes: Buffer }>((resolve, reject) => {
    http.get(`${t.baseUrl}${url}`, { headers: who ? { authorization: basic(who) } : {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], bytes: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

async function upload(who: Credentials, filename: string, bytes: Buffer) {
  const res = await multipart(t.baseUrl, 'POST', '/user_uploads', who, {}, [{ name: filename, filename, bytes }]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.url as string;
}

async function rendered(who: Credentials, id: number) {
  const res = await t.client(who).get(`/messages/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.message.content as string;
}

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 30 } } }).png().toBuffer();

/** A two-frame animated GIF. */
async function animatedGif(width: number, height: number): Promise<Buffer> {
  const frame = (r: number) => sharp({ create: { width, height, channels: 3, background: { r, g: 0, b: 0 } } }).raw().toBuffer();
  const strip = Buffer.concat([await frame(255), await frame(0)]);
  return sharp(strip, { raw: { width, height: height * 2, channels: 3, pageHeight: height } }).gif({ loop: 0 }).toBuffer();
}

beforeAll(async () => {
  await makeChannel(t.client(alice), 'pictures', { principals: [alice.userId, bob.userId] });
  await makeChannel(t.client(alice), 'private pictures', { invite_only: true, principals: [alice.userId, bob.userId] });
});

describe('image previews of uploads', () => {
  it('show the dimensions and a placeholder at once, then the thumbnail, announced by update_message', async () => {
    // Hold the thumbnailer back so the message is certainly rendered before the thumbnail exists.
    const thumbnails = t.server.thumbnails;
    const request = thumbnails.request.bind(thumbnails);
    const held: number[] = [];
    thumbnails.request = (id: number) => { held.push(id); };
    let url: string;
    let id: number;
    try {
      url = await upload(alice, 'photo.png', await png(1200, 900));
      const queue = await openQueue(t.client(bob), { event_types: '["update_message"]' });
      id = await sendToChannel(t.client(alice), 'pictures', 'photos', `[photo.png](${url})`);
      expect(await rendered(bob, id)).toBe(
        `<p><a href="${url}">photo.png</a></p>\n<div class="message_inline_image"><a href="${url}" title="photo.png">`
        + '<img class="image-loading-placeholder" data-original-content-type="image/png" data-original-dimensions="1200x900" '
        + 'src="/static/images/loading/loader-black.svg"></a></div>',
      );
      for (const flag of ['read', 'starred']) {
        expect((await t.client(bob).post('/messages/flags', { messages: [id], op: 'add', flag })).status).toBe(200);
      }
      thumbnails.request = request;
      for (const held1 of held) thumbnails.request(held1);
      await thumbnails.idle();
      const thumb = `/user_uploads/thumbnail/${url.slice('/user_uploads/'.length)}/840x560.webp`;
      const expected = `<p><a href="${url}">photo.png</a></p>\n<div class="message_inline_image"><a href="${url}" title="photo.png">`
        + `<img data-original-content-type="image/png" data-original-dimensions="1200x900" src="${thumb}"></a></div>`;
      expect(await rendered(bob, id)).toBe(expected);
      const events = await queue.events();
      // With Bob's own flags: clients replace theirs with them (an empty list would mark it unread and unstarred).
      expect(events).toEqual([expect.objectContaining({
        type: 'update_message', message_id: id, message_ids: [id], rendering_only: true, rendered_content: expected, user_id: null,
        flags: ['read', 'starred'],
      })]);
      // The thumbnail: to subscribers, shrunk to fit 840x560, WebP.
      const file = await get(thumb, bob);
      expect(file.status).toBe(200);
      expect(file.type).toBe('image/webp');
      const meta = await sharp(file.bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 747, 560]);
      // A later message shows the thumbnail straight away.
      const later = await sendToChannel(t.client(bob), 'pictures', 'photos', `again: [photo](${url})`);
      expect(await rendered(bob, later)).toContain(`src="${thumb}"`);
    } finally {
      thumbnails.request = request;
    }
  });

  it('a thumbnail finished while its message was being sent still reaches the message', async () => {
    // The thumbnailer's re-render cannot see a message that has not committed; the send looks again
    // after. Made certain: the thumbnail is finished right after the send read the upload's previews.
    const thumbnails = t.server.thumbnails;
    const request = thumbnails.request.bind(thumbnails);
    const held: number[] = [];
    thumbnails.request = (id: number) => { held.push(id); };
    const attachments = t.db.attachment;
    const findMany = attachments.findMany;
    try {
      const url = await upload(alice, 'race.png', await png(60, 40));
      let raced = false;
      (attachments as any).findMany = async (...args: any[]) => {
        const rows = await (findMany as any).apply(attachments, args);
        if (!raced && args[0]?.select?.thumbnails && rows.length) {
          raced = true;
          thumbnails.request = request;
          for (const id of held) request(id);
          await thumbnails.idle();
        }
        return rows;
      };
      const id = await sendToChannel(t.client(alice), 'pictures', 'race', `[race.png](${url})`);
      expect(raced).toBe(true);
      await thumbnails.idle();
      expect(await rendered(bob, id)).toContain(`src="/user_uploads/thumbnail/${url.slice('/user_uploads/'.length)}/840x560.webp"`);
    } finally {
      (attachments as any).findMany = findMany;
      thumbnails.request = request;
    }
  });

  it('thumbnails are served under the rules of their image', async () => {
    const url = await upload(alice, 'secret.png', await png(100, 50));
    await t.server.thumbnails.idle();
    const thumb = `/user_uploads/thumbnail/${url.slice('/user_uploads/'.length)}/840x560.webp`;
    expect((await get(thumb, alice)).status).toBe(200);
    expect((await get(thumb, bob)).status).toBe(403);
    await sendToChannel(t.client(alice), 'private pictures', 'x', `[secret.png](${url})`);
    expect((await get(thumb, bob)).status).toBe(200);
    expect((await get(thumb, carol)).status).toBe(403);
    // Small images are not enlarged.
    expect((await sharp((await get(thumb, bob)).bytes).metadata()).width).toBe(100);
    expect((await get(`${thumb.slice(0, -'840x560.webp'.length)}100x100.webp`, alice)).status).toBe(404);
  });

  it('animated images get an animated thumbnail too, and say so', async () => {
    const gif = await animatedGif(40, 30);
    expect((await sharp(gif, { animated: true }).metadata()).pages).toBe(2);
    const url = await upload(alice, 'anim.gif', gif);
    await t.server.thumbnails.idle();
    const id = await sendToChannel(t.client(alice), 'pictures', 'gifs', `[anim.gif](${url})`);
    const html = await rendered(alice, id);
    expect(html).toContain('data-animated="true" data-original-content-type="image/gif" data-original-dimensions="40x30"');
    const animated = await get(`/user_uploads/thumbnail/${url.slice('/user_uploads/'.length)}/840x560-anim.webp`, alice);
    expect(animated.status).toBe(200);
    expect((await sharp(animated.bytes, { animated: true }).metadata()).pages).toBe(2);
  });

  it('uploads that are no image get no preview', async () => {
    const url = await upload(alice, 'fake.png', Buffer.from('not an image at all'));
    const id = await sendToChannel(t.client(alice), 'pictures', 'fakes', `[fake.png](${url})`);
    expect(await rendered(alice, id)).toBe(`<p><a href="${url}">fake.png</a></p>`);
  });

  it('deleting the upload deletes its thumbnails', async () => {
    const url = await upload(alice, 'gone.png', await png(20, 20));
    await t.server.thumbnails.idle();
    const thumb = `/user_uploads/thumbnail/${url.slice('/user_uploads/'.length)}/840x560.webp`;
    expect((await get(thumb, alice)).status).toBe(200);
    const list = await t.client(alice).get('/attachments');
    const attachment = list.body.attachments.find((a: any) => url.endsWith(a.path_id));
    expect((await t.client(alice).delete(`/attachments/${attachment.id}`)).status).toBe(200);
    expect((await get(thumb, alice)).status).toBe(404);
    expect(await t.server.files.list(`thumbnail/${attachment.path_id}`)).toEqual([]);
  });

  it('thumbnails left unmade (a restart) are made when the server resumes', async () => {
    const url = await upload(alice, 'resumed.png', await png(30, 30));
    await t.server.thumbnails.idle();
    const pathId = url.slice('/user_uploads/'.length);
    await t.server.files.delete([`thumbnail/${pathId}/840x560.webp`]);
    // Written directly: a server stopped before it made the thumbnail, which the API cannot stage.
    await t.db.attachment.update({ where: { pathId }, data: { thumbnails: [] } });
    await t.server.thumbnails.resume();
    await t.server.thumbnails.idle();
    expect((await get(`/user_uploads/thumbnail/${pathId}/840x560.webp`, alice)).status).toBe(200);
  });

  it('register lists the thumbnail formats', async () => {
    const res = await t.client(alice).post('/register', { fetch_event_types: '["realm"]' });
    expect(res.body.server_thumbnail_formats).toEqual([
      { name: '840x560-anim.webp', max_width: 840, max_height: 560, format: 'webp', animated: true },
      { name: '840x560.webp', max_width: 840, max_height: 560, format: 'webp', animated: false },
    ]);
  });
});
