// Which emoji a name means, and whether a (name, code, type) triple names a real one: Zulip's
// get_emoji_data and check_emoji_request (zerver/lib/emoji.py), with the same error wording.
import type { Db } from '../../prisma/database.ts';
import type { Prisma } from '../../prisma/generated/client/client.ts';
import { BadRequestError } from '../errors.ts';
import { unicodeEmojiByName, unicodeEmojiNameForCode } from './unicode.ts';
import { isDbId } from '../rows.ts';

type Reader = Db | Prisma.TransactionClient;

export interface EmojiData {
  emojiCode: string;
  reactionType: string;
}

/** The code and type an emoji name stands for: an active custom emoji first, then `zulip`, then Unicode. */
export async function emojiDataForName(db: Reader, realmId: number, name: string): Promise<EmojiData> {
  const custom = await db.customEmoji.findFirst({ where: { realmId, name, deactivated: false }, select: { id: true } });
  if (custom) return { emojiCode: String(custom.id), reactionType: 'realm_emoji' };
  if (name === 'zulip') return { emojiCode: 'zulip', reactionType: 'zulip_extra_emoji' };
  const unicode = unicodeEmojiByName(name);
  if (unicode) return { emojiCode: unicode.code, reactionType: 'unicode_emoji' };
  throw new BadRequestError(`Emoji '${name}' does not exist`);
}

/** Throws unless the triple names an emoji that may be newly used (an active custom emoji, for that type). */
export async function checkEmojiRequest(db: Reader, realmId: number, name: string, code: string, type: string): Promise<void> {
  if (type === 'realm_emoji') {
    const id = /^\d+$/.test(code) ? Number(code) : NaN;
    const custom = isDbId(id) ? await db.customEmoji.findFirst({ where: { realmId, id }, select: { name: true, deactivated: true } }) : null;
    if (!custom) throw new BadRequestError('Invalid custom emoji.');
    if (custom.name !== name) throw new BadRequestError('Invalid custom emoji name.');
    if (custom.deactivated) throw new BadRequestError('This custom emoji has been deactivated.');
  } else if (type === 'zulip_extra_emoji') {
    if (code !== 'zulip') throw new BadRequestError('Invalid emoji code.');
    if (name !== code) throw new BadRequestError('Invalid emoji name.');
  } else if (type === 'unicode_emoji') {
    if (!unicodeEmojiNameForCode(code)) throw new BadRequestError('Invalid emoji code.');
    if (unicodeEmojiByName(name)?.code !== code) throw new BadRequestError('Invalid emoji name.');
  } else {
    throw new BadRequestError('Invalid emoji type.');
  }
}
