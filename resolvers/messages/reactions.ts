// Emoji reactions.
import type { Context } from '../../schema/context.ts';
import type { User } from '../../prisma/generated/client/client.ts';
import { BadRequestError, ReactionAlreadyExistsError, ReactionDoesNotExistError } from '../errors.ts';
import { unicodeEmojiByName, unicodeEmojiNameForCode } from '../emoji/unicode.ts';
import { accessMessage, messageAudience } from './access.ts';
import { isDbId } from '../rows.ts';
import type { ReactionEvent } from './events.ts';
import { inTransaction } from '../transaction.ts';
import { applyParticipation } from '../topics/auto-policies.ts';

export interface ReactionInput {
  emojiName?: string | null;
  emojiCode?: string | null;
  reactionType?: string | null;
}

const REACTION_TYPES = new Set(['unicode_emoji', 'realm_emoji', 'zulip_extra_emoji']);
// Zulip's built-in extra emoji (not Unicode, not uploaded).
const ZULIP_EXTRA_EMOJI = new Set(['zulip']);

/** Works out the emoji a reaction names, as Zulip does: by name, or by code and type. */
async function resolveEmoji(ctx: Context, input: ReactionInput, requireName: boolean): Promise<{ name: string; code: string; type: string }> {
  const name = input.emojiName?.trim() || null;
  if (requireName && !name) throw new BadRequestError("Missing 'emoji_name' argument");
  if (input.reactionType && !REACTION_TYPES.has(input.reactionType)) throw new BadRequestError('Invalid emoji type.');
  let type = input.reactionType ?? null;
  if (!type && name) {
    const custom = await ctx.db.customEmoji.findFirst({ where: { realmId: ctx.realm.id, name, deactivated: false } });
    if (custom) return { name, code: String(custom.id), type: 'realm_emoji' };
    if (ZULIP_EXTRA_EMOJI.has(name)) return { name, code: name, type: 'zulip_extra_emoji' };
    type = 'unicode_emoji';
  }
  type ??= 'unicode_emoji';
  if (type === 'unicode_emoji') {
    const code = input.emojiCode?.trim() || (name ? unicodeEmojiByName(name)?.code : undefined);
    if (!code || !unicodeEmojiNameForCode(code)) throw new BadRequestError(`Emoji '${name ?? input.emojiCode}' does not exist`);
    if (name && input.emojiCode && unicodeEmojiByName(name)?.code !== code) throw new BadRequestError('Invalid emoji name.');
    return { name: name ?? unicodeEmojiNameForCode(code)!, code, type };
  }
  if (type === 'realm_emoji') {
    const custom = input.emojiCode && /^\d+$/.test(input.emojiCode)
      ? !isDbId(Number(input.emojiCode)) ? null : await ctx.db.customEmoji.findFirst({ where: { realmId: ctx.realm.id, id: Number(input.emojiCode) } })
      : name ? await ctx.db.customEmoji.findFirst({ where: { realmId: ctx.realm.id, name } }) : null;
    if (!custom || (requireName && custom.deactivated)) throw new BadRequestError(`Emoji '${name ?? input.emojiCode}' does not exist`);
    return { name: custom.name, code: String(custom.id), type };
  }
  const extra = input.emojiCode ?? name;
  if (!extra || !ZULIP_EXTRA_EMOJI.has(extra)) throw new BadRequestError(`Emoji '${name ?? input.emojiCode}' does not exist`);
  return { name: extra, code: extra, type };
}

/** The `reaction` event, as Zulip's notify_reaction_update builds it (legacy `user` included). */
function reactionEvent(
  op: 'add' | 'remove', messageId: number, user: User,
  emoji: { emojiName: string; emojiCode: string; reactionType: string },
): ReactionEvent {
  return {
    type: 'reaction', op, message_id: messageId, user_id: user.id,
    user: { user_id: user.id, email: user.email, full_name: user.fullName },
    emoji_name: emoji.emojiName, emoji_code: emoji.emojiCode, reaction_type: emoji.reactionType,
  };
}

export async function addReaction(ctx: Context, user: User, messageId: number, input: ReactionInput): Promise<void> {
  const { message, userMessage } = await accessMessage(ctx.db, user, messageId, { modifying: true });
  const emoji = await resolveEmoji(ctx, input, true);
  const existing = await ctx.db.reaction.findUnique({
    where: { messageId_userId_emojiCode_reactionType: { messageId, userId: user.id, emojiCode: emoji.code, reactionType: emoji.type } },
  });
  if (existing) throw new ReactionAlreadyExistsError();
  try {
    await inTransaction(ctx, async (tx) => {
      await tx.db.reaction.create({ data: { messageId, userId: user.id, emojiName: emoji.name, emojiCode: emoji.code, reactionType: emoji.type } });
      // Reacting to public history the user never received gives them a (historical) row.
      if (!userMessage) {
        await tx.db.userMessage.upsert({
          where: { userId_messageId: { userId: user.id, messageId } },
          create: { userId: user.id, messageId, read: true, historical: true },
          update: {},
        });
      }
      await applyParticipation(tx, user, message);
    });
  } catch (error) {
    // The same reaction sent twice at once: the second loses the race on the unique key.
    if ((error as { code?: string }).code === 'P2002') throw new ReactionAlreadyExistsError();
    throw error;
  }
  ctx.events.publish(ctx.realm.id, await messageAudience(ctx.db, message.id), reactionEvent('add', messageId, user, { emojiName: emoji.name, emojiCode: emoji.code, reactionType: emoji.type }));
}

export async function removeReaction(ctx: Context, user: User, messageId: number, input: ReactionInput): Promise<void> {
  await accessMessage(ctx.db, user, messageId, { modifying: true });
  if (!input.emojiName && !input.emojiCode) throw new BadRequestError('At least one of the following arguments must be present: emoji_name, emoji_code');
  let where: { messageId: number; userId: number; emojiCode?: string; reactionType?: string; emojiName?: string };
  if (input.emojiCode) {
    where = { messageId, userId: user.id, emojiCode: input.emojiCode, reactionType: input.reactionType ?? 'unicode_emoji' };
  } else {
    const emoji = await resolveEmoji(ctx, input, true).catch(() => null);
    where = emoji ? { messageId, userId: user.id, emojiCode: emoji.code, reactionType: emoji.type } : { messageId, userId: user.id, emojiName: input.emojiName! };
  }
  const reaction = await ctx.db.reaction.findFirst({ where });
  if (!reaction) throw new ReactionDoesNotExistError();
  await ctx.db.reaction.delete({ where: { id: reaction.id } });
  ctx.events.publish(ctx.realm.id, await messageAudience(ctx.db, messageId), reactionEvent('remove', messageId, user, reaction));
}
