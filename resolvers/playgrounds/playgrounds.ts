// Code playgrounds (Zulip's RealmPlayground, zerver/views/realm_playgrounds.py): links the web app
// offers on code blocks of one language, each an RFC 6570 template with one variable, `code`.
// Administrators add and remove them; everyone gets the whole list in a `realm_playgrounds` event.
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError, InvalidArgumentError, UnauthorizedPrincipalError } from '../errors.ts';
import { initialStatePart } from '../events/initial-state/parts.ts';
import { inTransaction } from '../transaction.ts';
import { isAdmin } from '../users/roles.ts';
import { activeUserIds } from '../users/audience.ts';
import { isDbId } from '../rows.ts';
import { codePointLength } from '../text.ts';
import { parseTemplate, templateVariables } from '../linkifiers/engine.ts';

export interface PlaygroundWire {
  id: number;
  name: string;
  pygments_language: string;
  url_template: string;
}

export interface RealmPlaygroundsEvent {
  type: 'realm_playgrounds';
  realm_playgrounds: PlaygroundWire[];
}

declare module '../events/kinds.ts' {
  interface EventKinds {
    realm_playgrounds: RealmPlaygroundsEvent;
  }
}

/** Zulip's RealmPlayground.MAX_PYGMENTS_LANGUAGE_LENGTH and field lengths. */
const MAX_PYGMENTS_LANGUAGE_LENGTH = 40;
const MAX_NAME_LENGTH = 64;
const MAX_URL_TEMPLATE_LENGTH = 200;
const PYGMENTS_LANGUAGE = /^[ a-zA-Z0-9_+\-./#]*$/;

initialStatePart(['realm_playgrounds'], async (s) => ({ realm_playgrounds: await listPlaygrounds(s.ctx) }));

export async function listPlaygrounds(ctx: Pick<Context, 'db' | 'realm'>): Promise<PlaygroundWire[]> {
  const rows = await ctx.db.realmPlayground.findMany({ where: { realmId: ctx.realm.id }, orderBy: { id: 'asc' } });
  return rows.map((p) => ({ id: p.id, name: p.name, pygments_language: p.pygmentsLanguage, url_template: p.urlTemplate }));
}

export interface NewPlayground {
  name: string;
  pygmentsLanguage: string;
  urlTemplate: string;
}

function requireAdmin(actor: User): void {
  if (!isAdmin(actor)) throw new UnauthorizedPrincipalError('Must be an organization administrator');
}

function checkLength(name: string, value: string, max: number): void {
  if (codePointLength(value) > max) throw new InvalidArgumentError(name, `${name} is too long (limit: ${max} characters)`);
}

export async function addPlayground(ctx: Context, actor: User, input: NewPlayground): Promise<number> {
  requireAdmin(actor);
  const name = input.name.trim();
  const pygmentsLanguage = input.pygmentsLanguage;
  const urlTemplate = input.urlTemplate.trim();
  if (!name) throw new InvalidArgumentError('name', 'Name cannot be blank.');
  checkLength('name', name, MAX_NAME_LENGTH);
  if (!pygmentsLanguage) throw new InvalidArgumentError('pygments_language', 'Pygments language cannot be blank.');
  checkLength('pygments_language', pygmentsLanguage, MAX_PYGMENTS_LANGUAGE_LENGTH);
  if (!PYGMENTS_LANGUAGE.test(pygmentsLanguage)) throw new InvalidArgumentError('pygments_language', 'Invalid characters in pygments language');
  checkLength('url_template', urlTemplate, MAX_URL_TEMPLATE_LENGTH);
  const template = parseTemplate(urlTemplate);
  if (!template) throw new InvalidArgumentError('url_template', 'Invalid URL template.');
  const variables = templateVariables(template);
  if (variables.length !== 1 || variables[0] !== 'code') {
    throw new InvalidArgumentError('url_template', '"code" should be the only variable present in the URL template');
  }
  return inTransaction(ctx, async (tx) => {
    const clash = await tx.db.realmPlayground.findFirst({ where: { realmId: ctx.realm.id, pygmentsLanguage, name }, select: { id: true } });
    if (clash) throw new BadRequestError('Realm playground with this Realm, Pygments language and Name already exists.');
    const row = await tx.db.realmPlayground.create({ data: { realmId: ctx.realm.id, name, pygmentsLanguage, urlTemplate } });
    await announce(tx);
    return row.id;
  });
}

export async function removePlayground(ctx: Context, actor: User, playgroundId: number): Promise<void> {
  requireAdmin(actor);
  await inTransaction(ctx, async (tx) => {
    const { count } = isDbId(playgroundId)
      ? await tx.db.realmPlayground.deleteMany({ where: { id: playgroundId, realmId: ctx.realm.id } })
      : { count: 0 };
    if (!count) throw new BadRequestError('Invalid playground');
    await announce(tx);
  });
}

async function announce(ctx: Context): Promise<void> {
  ctx.events.publish(ctx.realm.id, await activeUserIds(ctx.db, ctx.realm.id), { type: 'realm_playgrounds', realm_playgrounds: await listPlaygrounds(ctx) });
}
