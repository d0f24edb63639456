// Drafts kept in step across the owner's clients (Zulip's zerver/lib/drafts.py): only their owner
// sees or changes them, someone else's draft answers like a missing one, and a user who turned
// `enable_drafts_synchronization` off may not use them at all (turning it off deletes them, see
// settings/user-settings.ts). Every change reaches the owner's queues as a `drafts` event.
import type { Draft, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import { initialStatePart } from '../events/initial-state/parts.ts';
import { hasContentAccess } from '../channels/access.ts';
import { normalizeContent } from '../messages/send.ts';
import { MAX_TOPIC_LENGTH } from '../limits.ts';
import { codePointLength, truncateCodePoints } from '../text.ts';
import { isDbId } from '../rows.ts';
import { inTransaction } from '../transaction.ts';
import { effectiveSettings } from '../settings/catalog.ts';
import { toUnixSeconds } from '../time.ts';

/** Zulip's MAX_DRAFTS_IN_REGISTER_RESPONSE. */
export const MAX_DRAFTS_IN_REGISTER_RESPONSE = 1000;

export const DRAFT_TYPES = ['', 'stream', 'private'] as const;

/** A draft as clients send it (Zulip's DraftData). */
export interface DraftInput {
  type: string;
  to: number[];
  topic: string;
  content: string;
  /** Unix seconds (fractions allowed); absent: now. */
  timestamp?: number | null;
}

/** A draft on the wire (Zulip's Draft.to_dict). */
export interface DraftWire {
  id: number;
  type: string;
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

export type DraftsEvent =
  | { type: 'drafts'; op: 'add'; drafts: DraftWire[] }
  | { type: 'drafts'; op: 'update'; draft: DraftWire }
  | { type: 'drafts'; op: 'remove'; draft_id: number };

declare module '../events/kinds.ts' {
  interface EventKinds {
    drafts: DraftsEvent;
  }
}

initialStatePart(['drafts'], async (s) => ({
  drafts: s.user
    ? (await s.db.draft.findMany({ where: { userId: s.user.id }, orderBy: [{ lastEditTime: 'desc' }, { id: 'desc' }], take: MAX_DRAFTS_IN_REGISTER_RESPONSE })).map(draftWire)
    : [],
}));

function draftWire(d: Pick<Draft, 'id' | 'type' | 'to' | 'topic' | 'content' | 'lastEditTime'>): DraftWire {
  return { id: d.id, type: d.type, to: d.to, topic: d.topic, content: d.content, timestamp: toUnixSeconds(d.lastEditTime) };
}

/** Zulip's draft_endpoint: every draft operation needs synchronization turned on. */
function requireSynchronization(ctx: Context, user: User): void {
  if (!effectiveSettings(user, ctx.realm).enable_drafts_synchronization) {
    throw new BadRequestError('User has disabled synchronizing drafts.');
  }
}

type DraftRow = Pick<Draft, 'type' | 'to' | 'topic' | 'content' | 'lastEditTime'>;

/** Zulip's further_validated_draft_dict: the stored form of a draft, or the error Zulip gives. */
async function validateDraft(ctx: Context, user: User, draft: DraftInput): Promise<DraftRow> {
  if (!(DRAFT_TYPES as readonly string[]).includes(draft.type)) throw new BadRequestError('Invalid type');
  const content = normalizeContent(draft.content);
  const seconds = draft.timestamp ?? Date.now() / 1000;
  if (!Number.isFinite(seconds)) throw new BadRequestError('Invalid timestamp');
  if (seconds < 0) throw new BadRequestError('Timestamp must not be negative.');
  const lastEditTime = new Date(Math.round(seconds * 1000));
  if (Number.isNaN(lastEditTime.getTime())) throw new BadRequestError('Invalid timestamp');

  if (draft.type === 'stream') {
    if (draft.topic.includes('\u0000')) throw new BadRequestError('Topic must not contain null bytes');
    let topic = draft.topic;
    if (codePointLength(topic) > MAX_TOPIC_LENGTH) topic = truncateCodePoints(topic, MAX_TOPIC_LENGTH - 3) + '...';
    if (draft.to.length !== 1) throw new BadRequestError('Must specify exactly 1 channel ID for channel messages');
    const channelId = draft.to[0]!;
    const channel = isDbId(channelId) ? await ctx.db.channel.findFirst({ where: { id: channelId, realmId: ctx.realm.id } }) : null;
    if (!channel || !(await hasContentAccess(ctx.db, user, channel))) throw new BadRequestError('Invalid channel ID');
    return { type: 'stream', to: [channel.id], topic, content, lastEditTime };
  }
  // A direct message draft without recipients is an unaddressed one.
  if (draft.type === '' || draft.to.length === 0) return { type: '', to: [], topic: '', content, lastEditTime };

  const ids = [...new Set(draft.to)];
  const invalid = ids.find((id) => !isDbId(id));
  if (invalid !== undefined) throw new BadRequestError(`Invalid user ID ${invalid}`);
  const users = await ctx.db.user.findMany({ where: { id: { in: ids }, realmId: ctx.realm.id }, select: { id: true, email: true, isActive: true } });
  for (const id of ids) {
    const found = users.find((u) => u.id === id);
    if (!found) throw new BadRequestError(`Invalid user ID ${id}`);
    if (!found.isActive) throw new BadRequestError(`'${found.email}' is no longer using Zulip.`);
  }
  // Zulip stores the conversation: the other participants, or the owner alone for a note to self.
  const others = ids.filter((id) => id !== user.id).sort((a, b) => a - b);
  return { type: 'private', to: others.length ? others : [user.id], topic: '', content, lastEditTime };
}

export async function listDrafts(ctx: Context, user: User): Promise<DraftWire[]> {
  requireSynchronization(ctx, user);
  const rows = await ctx.db.draft.findMany({ where: { userId: user.id }, orderBy: [{ lastEditTime: 'desc' }, { id: 'desc' }] });
  return rows.map(draftWire);
}

/** Creates the drafts (all or none); answers their IDs in the order given. */
export async function createDrafts(ctx: Context, user: User, drafts: DraftInput[]): Promise<number[]> {
  requireSynchronization(ctx, user);
  const rows: DraftRow[] = [];
  for (const draft of drafts) rows.push(await validateDraft(ctx, user, draft));
  return inTransaction(ctx, async (tx) => {
    const created: Draft[] = [];
    for (const row of rows) created.push(await tx.db.draft.create({ data: { ...row, realmId: ctx.realm.id, userId: user.id } }));
    if (created.length) tx.events.publish(ctx.realm.id, [user.id], { type: 'drafts', op: 'add', drafts: created.map(draftWire) });
    return created.map((d) => d.id);
  });
}

export async function editDraft(ctx: Context, user: User, draftId: number, draft: DraftInput): Promise<void> {
  requireSynchronization(ctx, user);
  const row = await validateDraft(ctx, user, draft);
  await inTransaction(ctx, async (tx) => {
    const updated = isDbId(draftId) ? await tx.db.draft.updateManyAndReturn({ where: { id: draftId, userId: user.id }, data: row }) : [];
    if (!updated.length) throw new NotFoundError('Draft does not exist');
    tx.events.publish(ctx.realm.id, [user.id], { type: 'drafts', op: 'update', draft: draftWire(updated[0]!) });
  });
}

export async function deleteDraft(ctx: Context, user: User, draftId: number): Promise<void> {
  requireSynchronization(ctx, user);
  await inTransaction(ctx, async (tx) => {
    const { count } = isDbId(draftId) ? await tx.db.draft.deleteMany({ where: { id: draftId, userId: user.id } }) : { count: 0 };
    if (!count) throw new NotFoundError('Draft does not exist');
    tx.events.publish(ctx.realm.id, [user.id], { type: 'drafts', op: 'remove', draft_id: draftId });
  });
}
