// Who a message's rendering mentions, and how: the mention and alert-word flags of each recipient,
// the same when a message is sent and when its content is edited (Zulip's render_message_markdown
// adding group members to the mentioned users, and update_user_message_flags).
import type { Db } from '../../prisma/database.ts';
import type { renderForRealm } from './render.ts';
import { activeUserIdsInGroup } from '../groups/membership.ts';
import { usersAlertedBy } from '../users/alert-words.ts';
import { topicParticipantIds } from './wildcard-mentions.ts';

export interface MentionFlags {
  mentioned: boolean;
  streamWildcardMentioned: boolean;
  topicWildcardMentioned: boolean;
  hasAlertWord: boolean;
}

export interface Mentions {
  /** The flags of one recipient; the author is never mentioned by their own message. */
  flagsFor(userId: number): MentionFlags;
  /** Recipients reached only by group mentions: the smallest such group (missed-message e-mails name it). */
  mentionGroupOf: Map<number, number>;
}

type Rendered = Pick<Awaited<ReturnType<typeof renderForRealm>>, 'mentionedUserIds' | 'mentionedGroupIds' | 'wildcardMention'>;

/** `topic`: the channel message's channel and topic (a topic wildcard mentions its participants); null for a direct message. */
export async function mentionsIn(
  db: Db, realmId: number, authorId: number, rendered: Rendered, content: string, topic: { channelId: number; topic: string } | null,
): Promise<Mentions> {
  const mentioned = new Set(rendered.mentionedUserIds);
  const groupMembers = new Map<number, number[]>();
  for (const groupId of rendered.mentionedGroupIds) {
    const members = await activeUserIdsInGroup(db, groupId);
    groupMembers.set(groupId, members);
    for (const userId of members) mentioned.add(userId);
  }
  const topicParticipants = topic && rendered.wildcardMention === 'topic' ? await topicParticipantIds(db, topic.channelId, topic.topic) : new Set<number>();
  const alerted = await usersAlertedBy(db, realmId, content);
  return {
    flagsFor: (userId) => {
      const other = userId !== authorId;
      return {
        mentioned: other && mentioned.has(userId),
        streamWildcardMentioned: other && rendered.wildcardMention === 'stream',
        topicWildcardMentioned: other && rendered.wildcardMention === 'topic' && topicParticipants.has(userId),
        hasAlertWord: other && alerted.has(userId),
      };
    },
    mentionGroupOf: groupMembers.size ? mentionGroupOf(new Set(rendered.mentionedUserIds), groupMembers) : new Map(),
  };
}

/** Whether any kind of mention reaches the recipient (Zulip's get_mentions_for_message_updates). */
export function isMentioned(flags: Partial<MentionFlags>): boolean {
  return !!(flags.mentioned || flags.streamWildcardMentioned || flags.topicWildcardMentioned);
}

/** Zulip's get_user_group_mentions_data: a personal mention wins; else the smallest group mentioned. */
function mentionGroupOf(personallyMentioned: ReadonlySet<number>, groupMembers: Map<number, number[]>): Map<number, number> {
  const chosen = new Map<number, number>();
  for (const [groupId, members] of groupMembers) {
    for (const userId of members) {
      if (personallyMentioned.has(userId)) continue;
      const previous = chosen.get(userId);
      if (previous == null || groupMembers.get(previous)!.length > members.length) chosen.set(userId, groupId);
    }
  }
  return chosen;
}
