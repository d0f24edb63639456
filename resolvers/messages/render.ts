// Renders message content for a realm: looks up just the users, groups, channels and emoji the
// content mentions (a few queries, whatever its length), then runs the Markdown renderer.
import type { Prisma } from '../../prisma/generated/client/client.ts';
import type { Db } from '../../prisma/database.ts';
import { extractMentionCandidates, renderMarkdown, webLinksIn, type MentionTargets, type RenderResult, type UploadPreview } from './markdown.ts';
import { DEFAULT_THUMBNAIL } from '../uploads/images.ts';
import { findTopicLinks } from '../linkifiers/engine.ts';
import { RealmCache } from '../realm-cache.ts';

type Reader = Db | Prisma.TransactionClient;

type LinkifierRule = { pattern: string; urlTemplate: string };

// Linkifiers apply to every message, so they are remembered per realm rather than read on every
// send; a change takes effect at once, through its `realm_linkifiers` event.
const linkifierCache = new RealmCache<LinkifierRule[]>(['realm_linkifiers'], (db, realmId) =>
  db.linkifier.findMany({ where: { realmId }, orderBy: [{ order: 'asc' }, { id: 'asc' }], select: { pattern: true, urlTemplate: true } }));

function linkifiersOf(db: Reader, realmId: number): Promise<LinkifierRule[]> {
  return linkifierCache.get(db, realmId);
}

/** Zulip's topic_links for a channel message's topic, from the realm's (cached) linkifiers. */
export async function topicLinksForRealm(db: Reader, realmId: number, topic: string): Promise<TopicLink[]> {
  if (!topic) return [];
  return topicLinksWith(await linkifiersOf(db, realmId), topic);
}

type TopicLink = { text: string; url: string };

// A page of messages repeats its topics, and so do the pages after it: the links are remembered per
// topic for as long as the realm's linkifier list is the same object (a change, or the cache's TTL,
// brings a new list, which starts afresh). The arrays are shared: callers put them on the wire as
// they are and must not modify them.
const topicLinksByList = new WeakMap<LinkifierRule[], Map<string, TopicLink[]>>();
const TOPIC_LINKS_KEPT = 2000;

export function topicLinksWith(linkifiers: LinkifierRule[], topic: string): TopicLink[] {
  if (!topic) return [];
  let byTopic = topicLinksByList.get(linkifiers);
  if (!byTopic) topicLinksByList.set(linkifiers, (byTopic = new Map()));
  let links = byTopic.get(topic);
  if (!links) {
    if (byTopic.size >= TOPIC_LINKS_KEPT) byTopic.clear();
    links = findTopicLinks(linkifiers, topic, webLinksIn(topic));
    byTopic.set(topic, links);
  }
  return links;
}

/** The realm's linkifiers in order, as the renderer uses them (cached briefly). */
export const realmLinkifiers = linkifiersOf;

export function forgetLinkifiers(realmId: number): void {
  linkifierCache.forget(realmId);
}

/** Path IDs of /user_uploads/ links in the content, decoded, for looking up image previews. */
function linkedUploadPathIds(content: string): string[] {
  const ids = new Set<string>();
  for (const match of content.matchAll(/\/user_uploads\/(\d+\/[^\s()<>\[\]"'?#]+)/g)) {
    try {
      ids.add(decodeURIComponent(match[1]!));
    } catch {
      ids.add(match[1]!);
    }
  }
  return [...ids];
}

/** The previews of the organization's image uploads among `pathIds` (with their thumbnail when made). */
export async function uploadPreviews(db: Reader, realmId: number, pathIds: string[]): Promise<Map<string, UploadPreview>> {
  if (!pathIds.length) return new Map();
  const rows = await db.attachment.findMany({
    where: { realmId, pathId: { in: pathIds }, width: { not: null } },
    select: { pathId: true, width: true, height: true, frames: true, contentType: true, thumbnails: true },
  });
  return new Map(rows.map((r) => [r.pathId, {
    width: r.width!, height: r.height!, contentType: r.contentType, animated: (r.frames ?? 1) > 1,
    thumbnail: r.thumbnails.includes(DEFAULT_THUMBNAIL) ? DEFAULT_THUMBNAIL : null,
  }]));
}

export async function renderForRealm(db: Reader, realmId: number, content: string): Promise<RenderResult> {
  const wanted = extractMentionCandidates(content);
  const lower = (names: string[]) => [...new Set(names.map((n) => n.toLowerCase()))];
  const [users, usersById, groups, channels, emoji, linkifiers] = await Promise.all([
    wanted.names.length
      ? db.user.findMany({ where: { realmId, isActive: true, fullName: { in: wanted.names, mode: 'insensitive' } }, select: { id: true, fullName: true } })
      : [],
    wanted.ids.length
      ? db.user.findMany({ where: { realmId, isActive: true, id: { in: wanted.ids } }, select: { id: true, fullName: true } })
      : [],
    wanted.groupNames.length
      ? db.userGroup.findMany({ where: { realmId, deactivated: false, name: { in: wanted.groupNames, mode: 'insensitive' } }, select: { id: true, name: true } })
      : [],
    wanted.channelNames.length
      ? db.channel.findMany({ where: { realmId, name: { in: wanted.channelNames, mode: 'insensitive' } }, select: { id: true, name: true } })
      : [],
    wanted.emojiNames.length
      ? db.customEmoji.findMany({ where: { realmId, deactivated: false, name: { in: lower(wanted.emojiNames) } }, select: { id: true, name: true } })
      : [],
    linkifiersOf(db, realmId),
  ]);
  const previews = content.includes('/user_uploads/') ? await uploadPreviews(db, realmId, linkedUploadPathIds(content)) : new Map();
  const usersByName = new Map<string, { id: number; fullName: string }[]>();
  for (const user of users) {
    const key = user.fullName.toLowerCase();
    usersByName.set(key, [...(usersByName.get(key) ?? []), user]);
  }
  const targets: MentionTargets = {
    usersByName,
    usersById: new Map([...users, ...usersById].map((u) => [u.id, u])),
    groupsByName: new Map(groups.map((g) => [g.name!.toLowerCase(), { id: g.id, name: g.name! }])),
    channelsByName: new Map(channels.map((c) => [c.name.toLowerCase(), c])),
    customEmoji: new Map(emoji.map((e) => [e.name, { id: e.id, name: e.name, url: `/user_avatars/${realmId}/emoji/images/${e.id}.png` }])),
    linkifiers,
    uploadPreviews: previews,
  };
  return renderMarkdown(content, targets);
}
