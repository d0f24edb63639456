// Missed-message e-mails (Zulip's missedmessage_emails worker and handle_missedmessage_emails):
// once a user's batching period ends, the messages queued for them (email-triggers.ts) that they
// still have unread become e-mails, one per conversation: a topic, or a direct conversation.
//
// Each process runs the worker. A user's rows are claimed with `FOR UPDATE SKIP LOCKED` and deleted
// in the transaction that sends their e-mails, so with any number of processes a batch goes out
// once; should the mail server refuse, the transaction rolls back and the batch is tried again
// later (RETRY_DELAY_MS).
import { Prisma, type Realm, type User } from '../../prisma/generated/client/client.ts';
import type { Services } from '../../schema/context.ts';
import type { Db } from '../../prisma/database.ts';
import { fromDisplayName, type OutgoingMail } from '../mail/mailer.ts';
import { inTransaction } from '../transaction.ts';
import { startPeriodicJob } from '../periodic.ts';
import { realmUrl } from '../realm/urls.ts';
import { userSetting } from '../settings/catalog.ts';
import { messageUrl, formatList } from '../scheduled/links.ts';
import { RESOLVED_TOPIC_PREFIX } from '../messages/topics.ts';
import { activeUserIdsInGroup } from '../groups/membership.ts';
import { unsubscribeLink } from './unsubscribe.ts';
import { OFFLINE_TRIGGERS, TRIGGER, queueMissedMessageEmails, type SentFacts } from './email-triggers.ts';

/** How long a batch the mail server refused waits before the next attempt. */
const RETRY_DELAY_MS = 5 * 60_000;
/** Zulip's get_context_for_message: up to 10 earlier messages of the topic, from the 15 minutes before. */
const CONTEXT_MESSAGES = 10;
const CONTEXT_WINDOW_MS = 15 * 60_000;
/** Zulip's realm_name_in_email_notifications_policy values. */
const REALM_NAME_IN_SUBJECT = { AUTOMATIC: 1, ALWAYS: 2, NEVER: 3 } as const;

export interface MissedMessageEmails {
  /** Queues the e-mails a committed message calls for (in the background; `sendDue` waits for it). */
  consider(sent: SentFacts): void;
  /** Sends every batch due at `asOf` (default now); resolves with how many users were e-mailed. */
  sendDue(asOf?: Date): Promise<number>;
  stop(): Promise<void>;
}

export function startMissedMessageEmails(services: Services, pollMs: number, log: (line: string) => void): MissedMessageEmails {
  const queueing = new Set<Promise<unknown>>();
  const job = startPeriodicJob('missed-message e-mails', pollMs, log, async (stopped) => sendBatches(services, new Date(), stopped, log));
  return {
    consider(sent) {
      const work = queueMissedMessageEmails(services, sent)
        .catch((error) => log(`missed-message e-mails for message ${sent.messageId}: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => queueing.delete(work));
      queueing.add(work);
    },
    async sendDue(asOf = new Date()) {
      await Promise.all(queueing);
      return sendBatches(services, asOf, () => false, log);
    },
    async stop() {
      await Promise.all(queueing);
      await job.stop();
    },
  };
}

async function sendBatches(services: Services, asOf: Date, stopped: () => boolean, log: (line: string) => void): Promise<number> {
  let sent = 0;
  for (;;) {
    if (stopped()) return sent;
    const outcome = await sendOneBatch(services, asOf, log);
    if (outcome === 'none') return sent;
    if (outcome === 'sent') sent += 1;
  }
}

interface QueuedRow {
  messageId: number;
  trigger: string;
  mentionedUserGroupId: number | null;
}

/** Claims the batch of one user with something due, sends it, and deletes it; 'none' when nothing is due. */
async function sendOneBatch(services: Services, asOf: Date, log: (line: string) => void): Promise<'none' | 'sent' | 'skipped' | 'failed'> {
  let userId: number | null = null;
  try {
    return await inTransaction(services, async ({ tx }) => {
      const [due] = await tx.$queryRaw<{ userId: number }[]>`
        SELECT "userId" FROM "MissedMessageEmail" WHERE "scheduledAt" <= ${asOf.toISOString()}::timestamp(3)
        ORDER BY "scheduledAt" LIMIT 1 FOR UPDATE SKIP LOCKED`;
      if (!due) return 'none';
      userId = due.userId;
      // The whole batch: a concurrent worker that reaches another of these rows waits, then finds it gone.
      const rows = await tx.$queryRaw<QueuedRow[]>`
        DELETE FROM "MissedMessageEmail" WHERE "userId" = ${due.userId}::int RETURNING "messageId", trigger, "mentionedUserGroupId"`;
      const mails = await composeBatch(services, tx as unknown as Db, due.userId, rows);
      for (const mail of mails) await services.mailer!.send(mail);
      return mails.length ? 'sent' : 'skipped';
    }, { timeout: 120_000, maxWait: 30_000 });
  } catch (error) {
    if (userId == null) throw error;
    log(`missed-message e-mails to user ${userId}: ${error instanceof Error ? error.message : String(error)}; trying again later`);
    await services.db.$executeRaw`
      UPDATE "MissedMessageEmail" SET "scheduledAt" = ${new Date(asOf.getTime() + RETRY_DELAY_MS).toISOString()}::timestamp(3)
      WHERE "userId" = ${userId}::int`;
    return 'failed';
  }
}

/** A queued message the user still has unread, as the e-mail shows it. */
interface MissedMessage {
  id: number;
  senderId: number;
  senderName: string;
  channelId: number | null;
  channelName: string | null;
  topic: string;
  directConversationId: number | null;
  content: string;
  dateSent: Date;
  /** Why the user is told (null for a context message). */
  trigger: string | null;
  mentionedUserGroupId: number | null;
}

/** Zulip's handle_missedmessage_emails: the e-mails one user's batch makes, least recently active conversation first. */
async function composeBatch(services: Services, db: Db, userId: number, rows: QueuedRow[]): Promise<OutgoingMail[]> {
  const user = await db.user.findUnique({ where: { id: userId }, include: { realm: true } });
  if (!user || !user.isActive || user.isBot || user.realm.deactivated) return [];
  // Direct messages and mentions need the setting still on; channel and followed-topic ones have their own.
  const offline = userSetting(user, 'enable_offline_email_notifications');
  const wanted = new Map(rows.filter((r) => offline || !OFFLINE_TRIGGERS.has(r.trigger)).map((r) => [r.messageId, r]));
  if (!wanted.size) return [];
  const messages = await messagesFor(db, userId, [...wanted.keys()]);
  const buckets = new Map<string, MissedMessage[]>();
  for (const message of messages) {
    const row = wanted.get(message.id)!;
    const key = message.channelId != null ? `c${message.channelId}:${message.topic.toLowerCase()}` : `d${message.directConversationId}`;
    const bucket = buckets.get(key) ?? [];
    bucket.push({ ...message, trigger: row.trigger, mentionedUserGroupId: row.mentionedUserGroupId });
    buckets.set(key, bucket);
  }
  const realmName = await includesRealmName(db, user);
  const mails: OutgoingMail[] = [];
  const ordered = [...buckets.values()].sort((a, b) => Math.max(...a.map((m) => m.id)) - Math.max(...b.map((m) => m.id)));
  for (const bucket of ordered) {
    const first = bucket.reduce((a, b) => (a.dateSent <= b.dateSent ? a : b));
    if (first.channelId != null && bucket.some((m) => m.trigger != null && m.trigger !== TRIGGER.STREAM_EMAIL && m.trigger !== TRIGGER.FOLLOWED_TOPIC_EMAIL)) {
      bucket.push(...(await contextFor(db, userId, first)));
    }
    mails.push(await composeEmail(services, db, user, bucket, realmName));
  }
  return mails;
}

/** A message as the e-mail shows it: `FROM "Message" m` joined with its sender `s` and channel `c`. */
const MESSAGE_COLUMNS = Prisma.sql`m.id, m."senderId", s."fullName" AS "senderName", m."channelId", c.name AS "channelName", m.topic,
  m."directConversationId", m.content, m."dateSent"`;

/** The messages among `ids` the user still has unread (deleted ones are gone with their rows). */
async function messagesFor(db: Db, userId: number, ids: number[]): Promise<Omit<MissedMessage, 'trigger' | 'mentionedUserGroupId'>[]> {
  return db.$queryRaw(Prisma.sql`
    SELECT ${MESSAGE_COLUMNS}
    FROM "Message" m
    JOIN "UserMessage" um ON um."messageId" = m.id AND um."userId" = ${userId}::int AND NOT um.read
    JOIN "User" s ON s.id = m."senderId"
    LEFT JOIN "Channel" c ON c.id = m."channelId"
    WHERE m.id = ANY(${ids}::int[])
    ORDER BY m.id`);
}

/** Zulip's get_context_for_message, limited to messages the user received (bulk_access_messages). */
async function contextFor(db: Db, userId: number, message: MissedMessage): Promise<MissedMessage[]> {
  const since = new Date(message.dateSent.getTime() - CONTEXT_WINDOW_MS).toISOString();
  const rows = await db.$queryRaw<Omit<MissedMessage, 'trigger' | 'mentionedUserGroupId'>[]>(Prisma.sql`
    SELECT ${MESSAGE_COLUMNS}
    FROM "Message" m
    JOIN "UserMessage" um ON um."messageId" = m.id AND um."userId" = ${userId}::int
    JOIN "User" s ON s.id = m."senderId"
    JOIN "Channel" c ON c.id = m."channelId"
    WHERE m."channelId" = ${message.channelId}::int AND lower(m.topic) = lower(${message.topic}::text)
      AND m.id < ${message.id}::int AND m."dateSent" > ${since}::timestamp(3)
    ORDER BY m.id DESC LIMIT ${CONTEXT_MESSAGES}::int`);
  return rows.map((row) => ({ ...row, trigger: null, mentionedUserGroupId: null }));
}

/** Zulip's include_realm_name_in_missedmessage_emails_subject: always, never, or when the address has accounts elsewhere. */
async function includesRealmName(db: Db, user: User & { realm: Realm }): Promise<boolean> {
  const policy = userSetting(user, 'realm_name_in_email_notifications_policy');
  if (policy === REALM_NAME_IN_SUBJECT.ALWAYS) return true;
  if (policy === REALM_NAME_IN_SUBJECT.NEVER) return false;
  const accounts = await db.user.count({
    where: { deliveryEmail: { equals: user.deliveryEmail, mode: 'insensitive' }, isActive: true, isBot: false, realm: { deactivated: false } },
  });
  return accounts > 1;
}

/** Zulip's do_send_missedmessage_events_reply_in_zulip and its missed_message templates, as text. */
async function composeEmail(services: Services, db: Db, user: User & { realm: Realm }, bucket: MissedMessage[], includeRealmName: boolean): Promise<OutgoingMail> {
  const realm = user.realm;
  const url = realmUrl(realm, services.config);
  bucket.sort((a, b) => a.id - b.id);
  const notified = bucket.filter((m) => m.trigger != null);
  const triggers = new Set(notified.map((m) => m.trigger));
  const first = notified[0]!;
  const showContent = realm.messageContentAllowedInEmailNotifications && userSetting(user, 'message_content_in_email_notifications');
  const topicName = first.topic === '' ? realm.emptyTopicDisplayName : first.topic;
  const resolved = topicName.startsWith(RESOLVED_TOPIC_PREFIX);
  const bareTopic = resolved ? topicName.slice(RESOLVED_TOPIC_PREFIX.length) : topicName;

  let participantIds: number[] = [];
  let subject: string;
  if (first.channelId == null) {
    const members = await db.directConversationMember.findMany({
      where: { conversationId: first.directConversationId! }, select: { user: { select: { id: true, fullName: true } } }, orderBy: { userId: 'asc' },
    });
    participantIds = members.map((m) => m.user.id);
    const others = members.filter((m) => m.user.id !== user.id).map((m) => m.user.fullName);
    if (others.length > 1) {
      const display = others.length <= 3 ? formatList(others) : `${others.slice(0, 2).join(', ')}, and ${others.length - 2} others`;
      subject = `Group DMs with ${display}`;
    } else {
      subject = `DMs with ${[...new Set(notified.map((m) => m.senderName))].join(', ')}`;
    }
  } else {
    subject = `${resolved ? '[resolved] ' : ''}#${first.channelName} > ${bareTopic}`;
  }
  if (!showContent) subject = 'New messages';
  if (includeRealmName) subject += ` [${realm.name}]`;

  const lines: string[] = [];
  if (showContent) {
    let previousSender: number | null = null;
    for (const message of bucket) {
      // Zulip names the sender in channels and group conversations, once per run of their messages.
      const named = first.channelId != null || participantIds.length > 2;
      const body = quote(plainContent(message.content, url));
      lines.push(named && message.senderId !== previousSender ? `${message.senderName}:\n${body}` : body, '');
      previousSender = message.senderId;
    }
  } else {
    lines.push(realm.messageContentAllowedInEmailNotifications
      ? 'This email does not include message content because you have disabled message content in email notifications.'
      : 'This email does not include message content because your organization has disabled message content in email notifications.', '');
  }
  const reason = await reasonLine(db, triggers, notified, first, bareTopic);
  if (reason) lines.push('--', reason, '');
  const unsubscribe = await unsubscribeLink({ db, config: services.config }, realm, user);
  lines.push(
    'Do not reply to this email. This server is not configured to accept incoming emails.',
    `View or reply in ${realm.name}:`, messageUrl(url, first, first.channelName, participantIds), '',
    'Manage email preferences:', `${url}/#settings/notifications`, '',
    'Unsubscribe from missed message emails:', unsubscribe,
  );
  // Zulip's "{INSTALLATION_NAME} notifications", from the no-reply address.
  const fromName = `${fromDisplayName(services.config.emailFrom) || 'Parley'} notifications`;
  // RFC 8058: mail clients offer to unsubscribe, with one POST to the same link.
  const headers = { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
  return { to: user.deliveryEmail, subject, text: `${lines.join('\n')}\n`, fromName, headers };
}

/** Why the e-mail came, as Zulip's template says it (a personal mention first, then a group, wildcards, followed topics, channels). */
async function reasonLine(db: Db, triggers: Set<string | null>, notified: MissedMessage[], first: MissedMessage, topic: string): Promise<string | null> {
  const personal = notified.some((m) => m.trigger === TRIGGER.MENTION && m.mentionedUserGroupId == null);
  if (personal) return 'You are receiving this because you were personally mentioned.';
  const groupIds = [...new Set(notified.filter((m) => m.trigger === TRIGGER.MENTION).map((m) => m.mentionedUserGroupId!))];
  if (groupIds.length) {
    // Zulip names the smallest group mentioned.
    const groups = await db.userGroup.findMany({ where: { id: { in: groupIds } }, select: { id: true, name: true } });
    const sized = await Promise.all(groups.map(async (g) => ({ name: g.name, size: (await activeUserIdsInGroup(db, g.id)).length })));
    const smallest = sized.sort((a, b) => a.size - b.size)[0];
    if (smallest?.name) return `You are receiving this because @${smallest.name} was mentioned.`;
  }
  if (triggers.has(TRIGGER.TOPIC_WILDCARD_MENTION) || triggers.has(TRIGGER.TOPIC_WILDCARD_MENTION_IN_FOLLOWED_TOPIC)) {
    return `You are receiving this because all topic participants were mentioned in #${first.channelName} > ${topic}.`;
  }
  if (triggers.has(TRIGGER.STREAM_WILDCARD_MENTION) || triggers.has(TRIGGER.STREAM_WILDCARD_MENTION_IN_FOLLOWED_TOPIC)) {
    return `You are receiving this because everyone was mentioned in #${first.channelName}.`;
  }
  if (triggers.has(TRIGGER.FOLLOWED_TOPIC_EMAIL)) return 'You are receiving this because you have email notifications enabled for topics you follow.';
  if (triggers.has(TRIGGER.STREAM_EMAIL)) return `You are receiving this because you have email notifications enabled for #${first.channelName}.`;
  return null;
}

/**
 * Zulip's plain-text message payload: the Markdown source with uploads as absolute links and
 * spoilers' contents left out, quoted so mail clients show it as a quotation.
 */
function plainContent(content: string, url: string): string {
  const lines: string[] = [];
  let openFence: string | null = null;
  for (const line of content.replace(/\[(\S*)\]\((\S*)\)/g, '$2').replace(/(?<![\w/])\/user_uploads\//g, `${url}/user_uploads/`).split('\n')) {
    const fence = /^\s*(`{3,}|~{3,})\s*(\S*)/.exec(line);
    if (fence) {
      if (openFence == null && fence[2] === 'spoiler') {
        openFence = fence[1]!;
        lines.push(line, '(Open Zulip to see the spoiler content)');
        continue;
      }
      if (openFence != null && fence[1] === openFence && !fence[2]) {
        openFence = null;
        lines.push(line);
        continue;
      }
    }
    if (openFence == null) lines.push(line);
  }
  return lines.join('\n');
}

function quote(text: string): string {
  return text.split('\n').map((line) => `> ${line}`).join('\n');
}
