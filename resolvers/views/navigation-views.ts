// Navigation views (Zulip's zerver/views/navigation_views.py): per-user placement of the built-in
// views and the user's named custom views. Events go to the user's own clients only.
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import { codePointLength } from '../text.ts';
import { MAX_INDEXED_TEXT_LENGTH } from '../limits.ts';
import type { NavigationViewShape } from '../../schema/navigation-views.ts';
import { initialStatePart } from '../events/initial-state/parts.ts';

/** Zulip's BUILT_IN_VIEW_FRAGMENTS: these carry no name of their own. */
export const BUILT_IN_VIEW_FRAGMENTS = [
  'inbox',
  'recent',
  'feed',
  'drafts',
  'narrow/has/reaction/sender/me',
  'narrow/is/mentioned',
  'narrow/is/starred',
];

function shape(row: { fragment: string; isPinned: boolean; name: string | null }): NavigationViewShape {
  return { fragment: row.fragment, isPinned: row.isPinned, name: row.name };
}

/** The wire record: built-in views leave `name` out (as the register response does). */
export function navigationViewWire(view: NavigationViewShape): Record<string, unknown> {
  return { fragment: view.fragment, is_pinned: view.isPinned, ...(view.name != null ? { name: view.name } : {}) };
}

function cleanFragment(fragment: string): string {
  const trimmed = fragment.trim();
  if (trimmed === '') throw new BadRequestError('fragment cannot be blank');
  if (codePointLength(trimmed) > MAX_INDEXED_TEXT_LENGTH) throw new BadRequestError(`fragment is too long (limit: ${MAX_INDEXED_TEXT_LENGTH} characters)`);
  return trimmed;
}

/** Zulip strips names; a name that is blank after that is refused rather than stored. */
function cleanName(name: string | null | undefined): string | null {
  if (name == null) return null;
  const trimmed = name.trim();
  if (trimmed === '') throw new BadRequestError('name cannot be blank');
  if (codePointLength(trimmed) > MAX_INDEXED_TEXT_LENGTH) throw new BadRequestError(`name is too long (limit: ${MAX_INDEXED_TEXT_LENGTH} characters)`);
  return trimmed;
}

const ALREADY_EXISTS = 'Navigation view already exists.';
const DOES_NOT_EXIST = 'Navigation view does not exist.';

export async function listNavigationViews(ctx: Pick<Context, 'db'>, user: Pick<User, 'id'>): Promise<NavigationViewShape[]> {
  const rows = await ctx.db.navigationView.findMany({ where: { userId: user.id }, orderBy: { id: 'asc' } });
  return rows.map(shape);
}

export async function addNavigationView(
  ctx: Context, user: User, input: { fragment: string; isPinned: boolean; name?: string | null },
): Promise<void> {
  const fragment = cleanFragment(input.fragment);
  const name = cleanName(input.name);
  if (BUILT_IN_VIEW_FRAGMENTS.includes(fragment)) {
    if (name !== null) throw new BadRequestError('Built-in views cannot have a custom name.');
  } else if (name === null) {
    throw new BadRequestError('Custom views must have a valid name.');
  }
  const view = await ctx.db.$transaction(async (tx) => {
    const clash = await tx.navigationView.findFirst({
      where: { userId: user.id, OR: [{ fragment }, ...(name !== null ? [{ name }] : [])] },
    });
    if (clash) throw new BadRequestError(ALREADY_EXISTS);
    return tx.navigationView.create({ data: { userId: user.id, fragment, isPinned: input.isPinned, name } });
  });
  ctx.events.publish(user.realmId, [user.id], { type: 'navigation_view', op: 'add', navigation_view: navigationViewWire(shape(view)) });
}

export async function updateNavigationView(
  ctx: Context, user: User, input: { fragment: string; isPinned?: boolean | null; name?: string | null },
): Promise<void> {
  const fragment = cleanFragment(input.fragment);
  const name = cleanName(input.name);
  if (name !== null && BUILT_IN_VIEW_FRAGMENTS.includes(fragment)) {
    throw new BadRequestError('Built-in views cannot have a custom name.');
  }
  const data: { is_pinned?: boolean; name?: string } = {};
  await ctx.db.$transaction(async (tx) => {
    if (name !== null && await tx.navigationView.findFirst({ where: { userId: user.id, name, NOT: { fragment } } })) {
      throw new BadRequestError(ALREADY_EXISTS);
    }
    const view = await tx.navigationView.findUnique({ where: { userId_fragment: { userId: user.id, fragment } } });
    if (!view) throw new NotFoundError(DOES_NOT_EXIST);
    if (name !== null) data.name = name;
    if (input.isPinned != null) data.is_pinned = input.isPinned;
    await tx.navigationView.update({
      where: { id: view.id },
      data: { ...(data.name !== undefined ? { name: data.name } : {}), ...(data.is_pinned !== undefined ? { isPinned: data.is_pinned } : {}) },
    });
  });
  ctx.events.publish(user.realmId, [user.id], { type: 'navigation_view', op: 'update', fragment, data });
}

export async function removeNavigationView(ctx: Context, user: User, rawFragment: string): Promise<void> {
  const fragment = cleanFragment(rawFragment);
  await ctx.db.$transaction(async (tx) => {
    const view = await tx.navigationView.findUnique({ where: { userId_fragment: { userId: user.id, fragment } } });
    if (!view) throw new NotFoundError(DOES_NOT_EXIST);
    await tx.navigationView.delete({ where: { id: view.id } });
  });
  ctx.events.publish(user.realmId, [user.id], { type: 'navigation_view', op: 'remove', fragment });
}

initialStatePart(['navigation_views'], async (s) => ({ navigation_views: s.user ? (await listNavigationViews(s, s.user)).map(navigationViewWire) : [] }));
