// Setting a user's status (POST /users/me/status and the administrators' POST /users/{id}/status),
// after Zulip's update_user_status_backend and do_update_user_status: only the values passed
// change; the empty string clears; the deprecated `away` is the negation of presence_enabled.
import type { Context } from '../../schema/context.ts';
import type { UserStatusEvent } from './events.ts';
import type { User } from '../../prisma/generated/client/client.ts';
import { BadRequestError, PermissionDeniedError } from '../errors.ts';
import { checkEmojiRequest, emojiDataForName } from '../emoji/check.ts';
import { codePointLength } from '../text.ts';
import { isAdmin } from '../users/roles.ts';
import { userIdsWhoCanAccess } from '../users/audience.ts';
import { changeUserSettings } from '../settings/change.ts';
import { inTransaction } from '../transaction.ts';

export const MAX_STATUS_TEXT_LENGTH = 60;

export interface StatusInput {
  statusText?: string | null;
  emojiName?: string | null;
  emojiCode?: string | null;
  reactionType?: string | null;
  /** Deprecated: `!presence_enabled`. Only the user themself may pass it. */
  away?: boolean | null;
}

export interface StatusView {
  away?: boolean;
  statusText?: string;
  emojiName?: string;
  emojiCode?: string;
  reactionType?: string;
}

export async function updateOwnStatus(ctx: Context, user: User, input: StatusInput): Promise<void> {
  if (user.isBot) throw new BadRequestError('This endpoint does not accept bot requests.');
  await updateStatus(ctx, user, input);
}

export async function updateUserStatusAsAdmin(ctx: Context, actor: User, targetId: number, input: StatusInput): Promise<void> {
  const target = await ctx.db.user.findFirst({ where: { id: targetId, realmId: ctx.realm.id } });
  if (!target) throw new BadRequestError('No such user');
  if (!target.isActive) throw new BadRequestError('User is deactivated');
  if (!isAdmin(actor)) throw new PermissionDeniedError('Insufficient permission');
  await updateStatus(ctx, target, { ...input, away: undefined });
}

async function updateStatus(ctx: Context, user: User, input: StatusInput): Promise<void> {
  let statusText = input.statusText ?? undefined;
  let emojiName = input.emojiName ?? undefined;
  let emojiCode = input.emojiCode ?? undefined;
  let reactionType = input.reactionType ?? undefined;
  const away = input.away ?? undefined;
  if (statusText !== undefined) {
    statusText = statusText.trim();
    if (codePointLength(statusText) > MAX_STATUS_TEXT_LENGTH) {
      throw new BadRequestError(`status_text is too long (limit: ${MAX_STATUS_TEXT_LENGTH} characters)`);
    }
  }
  if (away === undefined && statusText === undefined && emojiName === undefined) {
    throw new BadRequestError('Client did not pass any new values.');
  }
  if (emojiName === '') {
    // Clearing the emoji clears its code and type with it.
    emojiCode = '';
    reactionType = 'unicode_emoji';
  } else if (emojiName !== undefined) {
    if (emojiCode === undefined || reactionType === undefined) {
      const data = await emojiDataForName(ctx.db, ctx.realm.id, emojiName);
      emojiCode ??= data.emojiCode;
      reactionType ??= data.reactionType;
    }
    await checkEmojiRequest(ctx.db, ctx.realm.id, emojiName, emojiCode, reactionType);
  } else if (reactionType || emojiCode) {
    throw new BadRequestError('Client must pass emoji_name if they pass either emoji_code or reaction_type.');
  }

  const changes: { statusText?: string; emojiName?: string; emojiCode?: string; reactionType?: string } = {};
  if (statusText !== undefined) changes.statusText = statusText;
  if (emojiName !== undefined) Object.assign(changes, { emojiName, emojiCode, reactionType });
  await inTransaction(ctx, async (tx) => {
    await tx.db.userStatus.upsert({
      where: { userId: user.id },
      create: { userId: user.id, ...changes, timestamp: new Date() },
      update: { ...changes, timestamp: new Date() },
    });
    // Zulip's update_user_status_backend announces presence_enabled even when it keeps its value.
    if (away !== undefined) await changeUserSettings(tx, user, { presence_enabled: !away }, { announceUnchanged: true });
  });

  const audience = await userIdsWhoCanAccess(ctx.db, ctx.realm, user.id);
  const event: UserStatusEvent = { type: 'user_status', user_id: user.id };
  if (away !== undefined) event.away = away;
  if (statusText !== undefined) event.status_text = statusText;
  if (emojiName !== undefined) Object.assign(event, { emoji_name: emojiName, emoji_code: emojiCode, reaction_type: reactionType });
  ctx.events.publish(ctx.realm.id, audience, event);
}

/** A user's status as Zulip shows it: only the set parts, `away` when presence sharing is off. */
export async function statusOf(ctx: Context, targetId: number): Promise<StatusView> {
  const target = await ctx.db.user.findFirst({ where: { id: targetId, realmId: ctx.realm.id }, include: { status: true } });
  if (!target) throw new BadRequestError('No such user');
  if (!target.isActive) throw new BadRequestError('User is deactivated');
  return statusView(target.status, target.settings);
}

function statusView(
  row: { statusText: string; emojiName: string; emojiCode: string; reactionType: string } | null,
  settings: unknown,
): StatusView {
  const view: StatusView = {};
  if (!presenceEnabledIn(settings)) view.away = true;
  if (row?.statusText) view.statusText = row.statusText;
  if (row?.emojiName) Object.assign(view, { emojiName: row.emojiName, emojiCode: row.emojiCode, reactionType: row.reactionType });
  return view;
}

export function presenceEnabledIn(settings: unknown): boolean {
  const value = settings && typeof settings === 'object' ? (settings as Record<string, unknown>).presence_enabled : undefined;
  return typeof value === 'boolean' ? value : true;
}
