// Linkifiers: list, add, update, remove, reorder. Administrators only for changes; every change
// sends the realm's full list (`realm_linkifiers`) to its active users after commit, and makes
// this process's renderer forget its cached list at once.
import type { Prisma, Linkifier, User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, UnauthorizedPrincipalError } from '../errors.ts';
import { isAdmin } from '../users/roles.ts';
import { checkLinkifier, type LinkifierFields } from './validate.ts';
import { initialStatePart } from '../events/initial-state/parts.ts';

type Reader = Context['db'] | Prisma.TransactionClient;

export interface LinkifierInput {
  pattern: string;
  urlTemplate: string;
  exampleInput?: string | null;
  reverseTemplate?: string | null;
  alternativeUrlTemplates?: string[] | null;
}

/** A linkifier as Zulip sends it (GET /realm/linkifiers, register, events). */
export function linkifierWire(l: Linkifier) {
  return {
    id: l.id,
    pattern: l.pattern,
    url_template: l.urlTemplate,
    example_input: l.exampleInput,
    reverse_template: l.reverseTemplate,
    alternative_url_templates: l.alternativeUrlTemplates,
  };
}

export function listLinkifiers(db: Reader, realmId: number): Promise<Linkifier[]> {
  return db.linkifier.findMany({ where: { realmId }, orderBy: [{ order: 'asc' }, { id: 'asc' }] });
}

function requireAdmin(user: User): void {
  if (!isAdmin(user)) throw new UnauthorizedPrincipalError('Must be an organization administrator');
}

const notFound = () => new BadRequestError('Linkifier not found.');
const duplicate = () => new BadRequestError('Realm filter with this Realm and Pattern already exists.');

async function refuseDuplicate(tx: Reader, realmId: number, pattern: string, exceptId?: number): Promise<void> {
  const clash = await tx.linkifier.findFirst({ where: { realmId, pattern, ...(exceptId ? { id: { not: exceptId } } : {}) }, select: { id: true } });
  if (clash) throw duplicate();
}

/** Runs a change; a concurrent insert of the same pattern surfaces as the duplicate error. */
async function write<T>(ctx: Context, change: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  try {
    return await ctx.db.$transaction(change);
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002') throw duplicate();
    throw error;
  }
}

async function notify(ctx: Context): Promise<void> {
  const realmId = ctx.realm.id;
  const [rows, users] = await Promise.all([
    listLinkifiers(ctx.db, realmId),
    ctx.db.user.findMany({ where: { realmId, isActive: true }, select: { id: true } }),
  ]);
  ctx.events.publish(realmId, users.map((u) => u.id), { type: 'realm_linkifiers', realm_linkifiers: rows.map(linkifierWire) });
}

export async function addLinkifier(ctx: Context, actor: User, input: LinkifierInput): Promise<number> {
  requireAdmin(actor);
  const fields = checkLinkifier({
    pattern: input.pattern,
    urlTemplate: input.urlTemplate,
    exampleInput: input.exampleInput ?? null,
    reverseTemplate: input.reverseTemplate ?? null,
    alternativeUrlTemplates: input.alternativeUrlTemplates ?? [],
  });
  const realmId = ctx.realm.id;
  const created = await write(ctx, async (tx) => {
    await refuseDuplicate(tx, realmId, fields.pattern);
    // New linkifiers go last.
    const last = await tx.linkifier.aggregate({ where: { realmId }, _max: { order: true } });
    return tx.linkifier.create({ data: { realmId, ...fields, order: (last._max.order ?? -1) + 1 } });
  });
  await notify(ctx);
  return created.id;
}

export async function updateLinkifier(ctx: Context, actor: User, id: number, input: LinkifierInput): Promise<void> {
  requireAdmin(actor);
  const realmId = ctx.realm.id;
  await write(ctx, async (tx) => {
    const current = await tx.linkifier.findFirst({ where: { id, realmId } });
    if (!current) throw notFound();
    // Optional fields left out keep their stored value; the result is checked as a whole.
    const fields: LinkifierFields = checkLinkifier({
      pattern: input.pattern,
      urlTemplate: input.urlTemplate,
      exampleInput: input.exampleInput === undefined ? current.exampleInput : input.exampleInput,
      reverseTemplate: input.reverseTemplate === undefined ? current.reverseTemplate : input.reverseTemplate,
      alternativeUrlTemplates: input.alternativeUrlTemplates ?? current.alternativeUrlTemplates,
    });
    await refuseDuplicate(tx, realmId, fields.pattern, id);
    await tx.linkifier.update({ where: { id }, data: fields });
  });
  await notify(ctx);
}

export async function removeLinkifier(ctx: Context, actor: User, id: number): Promise<void> {
  requireAdmin(actor);
  const removed = await ctx.db.linkifier.deleteMany({ where: { id, realmId: ctx.realm.id } });
  if (removed.count === 0) throw notFound();
  await notify(ctx);
}

export async function reorderLinkifiers(ctx: Context, actor: User, orderedIds: number[]): Promise<void> {
  requireAdmin(actor);
  const wanted = new Set(orderedIds);
  if (wanted.size < orderedIds.length) throw new BadRequestError('The ordered list must not contain duplicated linkifiers');
  const realmId = ctx.realm.id;
  const changed = await ctx.db.$transaction(async (tx) => {
    const existing = await tx.linkifier.findMany({ where: { realmId }, select: { id: true } });
    if (existing.length !== wanted.size || existing.some((l) => !wanted.has(l.id))) {
      throw new BadRequestError('The ordered list must enumerate all existing linkifiers exactly once');
    }
    for (const [order, id] of orderedIds.entries()) await tx.linkifier.update({ where: { id }, data: { order } });
    return existing.length > 0;
  });
  // Nothing to reorder: no event, as in Zulip.
  if (changed) await notify(ctx);
}

initialStatePart(['realm_linkifiers', 'realm_filters'], async (s) => ({
  // Clients without the linkifier_url_template capability cannot read URL templates: they get none.
  ...(s.want('realm_linkifiers')
    ? { realm_linkifiers: s.capability('linkifier_url_template') ? (await listLinkifiers(s.db, s.realm.id)).map(linkifierWire) : [] }
    : {}),
  // The legacy format cannot express URL templates, so it is always empty (as in Zulip).
  ...(s.want('realm_filters') ? { realm_filters: [] } : {}),
}));
