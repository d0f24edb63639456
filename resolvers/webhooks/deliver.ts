// Incoming webhooks (Zulip's webhook_view + check_send_webhook_message): a third party calls
// `/api/v1/external/<integration>` with a bot's API key; the integration turns the request into
// messages, which go to the channel and topic the URL names, or to the bot's owner.
import type { User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import {
  InvalidArgumentError, InvalidJsonError, MethodNotAllowedError, MisconfiguredWebhookPayloadError, MissingHttpEventHeaderError, NotFoundError,
  StreamDoesNotExistError,
} from '../errors.ts';
import { sendMessage } from '../messages/send.ts';
import { sendAsNotificationBot } from '../messages/internal-send.ts';
import type { Integration, WebhookMessage, WebhookUser } from './integration.ts';
import { fnmatch, pythonUnquote } from './python.ts';
import { integrationNamed } from './integrations/index.ts';
import { IncomingWebhookRequest, type WebhookRequestParts } from './request.ts';

export interface WebhookDelivery {
  integration: string;
  request: { body: string; headers?: unknown; params?: unknown };
  /** A channel name or ID; none: the bot's owner gets the messages as direct messages. */
  stream?: string | null;
  /** Replaces the topic the integration chose. */
  topic?: string | null;
  /** Shell-style patterns of the event types to send (others are dropped). */
  onlyEvents?: readonly string[] | null;
  /** Shell-style patterns of the event types to drop. */
  excludeEvents?: readonly string[] | null;
}

/** Zulip's full_webhook_client_name: what messages show as their sending client. */
const clientName = (integration: Integration) => `Zulip${integration.displayName}Webhook`;

/** What delivering did: the messages sent and, for a third party checking its credentials, who they are. */
export interface DeliveredWebhook {
  messageIds: number[];
  sender: { userId: number; email: string; fullName: string } | null;
}

function integrationOrNotFound(name: string): Integration {
  const integration = integrationNamed(name);
  if (!integration) throw new NotFoundError('Endpoint not found');
  return integration;
}

/**
 * Zulip's return_success_on_head_request: a third party checking the URL with HEAD (Trello, when its
 * webhook is made) gets a 200 once the credentials pass; other integrations take only POST.
 */
export function checkWebhookUrl(name: string): true {
  if (!integrationOrNotFound(name).answersHead) throw new MethodNotAllowedError();
  return true;
}

export async function deliverWebhook(ctx: Context, user: User, delivery: WebhookDelivery): Promise<DeliveredWebhook> {
  const integration = integrationOrNotFound(delivery.integration);
  const request = new IncomingWebhookRequest(requestParts(delivery.request));
  const users = integration.readsUsers ? await organizationUsers(ctx) : [];
  let outcome;
  try {
    outcome = integration.translate(request, users);
  } catch (error) {
    if (!integration.slackResponses) await tellOwnerWhy(ctx, user, integration, error);
    throw error;
  }
  if (outcome.ownerNotice) await notifyBotOwner(ctx, user, outcome.ownerNotice(user.fullName, ctx.config.adminEmail));
  const sending = { ...ctx, clientName: clientName(integration) };
  const messageIds: number[] = [];
  for (const message of outcome.messages) {
    const eventType = message.eventType ?? outcome.eventType;
    if (eventType !== undefined && !wanted(eventType, delivery)) continue;
    const id = await sendWebhookMessage(sending, user, addressOf(integration, delivery), message);
    if (id !== null) messageIds.push(id);
  }
  const sender = outcome.answerWithSender ? { userId: user.id, email: user.email, fullName: user.fullName } : null;
  return { messageIds, sender };
}

function organizationUsers(ctx: Context): Promise<WebhookUser[]> {
  return ctx.db.user.findMany({
    where: { realmId: ctx.realm.id }, orderBy: { id: 'asc' },
    select: { id: true, fullName: true, email: true, deliveryEmail: true, isActive: true },
  });
}

/** Where the URL sends the messages, decoded once more where the integration's senders escape it twice. */
function addressOf(integration: Integration, delivery: WebhookDelivery): Address {
  const decode = (value: string | null | undefined) => (value != null && integration.unquoteUrlParameters ? pythonUnquote(value) : value ?? null);
  return { stream: decode(delivery.stream), topic: decode(delivery.topic) };
}

interface Address {
  stream: string | null;
  topic: string | null;
}

function requestParts(request: WebhookDelivery['request']): WebhookRequestParts {
  return { body: request.body, headers: stringRecord('headers', request.headers), params: stringRecord('params', request.params) };
}

function stringRecord(name: string, value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value) || Object.values(value).some((v) => typeof v !== 'string')) {
    throw new InvalidArgumentError(name, `${name} must be an object of strings`);
  }
  return value as Record<string, string>;
}

/** Zulip's only_events/exclude_events, matched as Python's fnmatch does. */
function wanted(eventType: string, { onlyEvents, excludeEvents }: WebhookDelivery): boolean {
  if (onlyEvents && !onlyEvents.some((pattern) => fnmatch(eventType, pattern))) return false;
  if (excludeEvents && excludeEvents.some((pattern) => fnmatch(eventType, pattern))) return false;
  return true;
}

/** Sends one message where the URL (or the integration) says; its ID, or null where the channel does not exist. */
async function sendWebhookMessage(ctx: Context, user: User, delivery: Address, message: WebhookMessage): Promise<number | null> {
  if (message.directTo !== undefined || delivery.stream == null) {
    // The person the integration names; else, without a channel, a bot's owner (a person's own
    // webhook URL reaches them).
    const to = message.directTo ?? user.botOwnerId ?? user.id;
    return (await sendMessage(ctx, user, { type: 'direct', to: [to], content: message.content })).id;
  }
  const byId = /^\d+$/.test(delivery.stream);
  try {
    const sent = await sendMessage(ctx, user, {
      type: 'channel', to: byId ? Number(delivery.stream) : delivery.stream, topic: delivery.topic ?? message.topic, content: message.content,
    });
    // Zulip's send_pm_if_empty_stream: a channel nobody reads is likely not the one meant.
    const unread = sent.recipientUserIds.length <= 1 ? await channelWithoutSubscribers(ctx, sent.id) : null;
    if (unread !== null) {
      await notifyBotOwner(ctx, user, `Your bot ${botIdentity(user)} tried to send a message to channel #**${unread}**. The channel exists but does not have any subscribers.`);
    }
    return sent.id;
  } catch (error) {
    if (!(error instanceof StreamDoesNotExistError)) throw error;
    // Zulip answers the third party with success: only the owner can mend the URL.
    await notifyBotOwner(ctx, user, byId
      ? `Your bot ${botIdentity(user)} tried to send a message to channel ID ${delivery.stream}, but there is no channel with that ID.`
      : `Your bot ${botIdentity(user)} tried to send a message to channel #**${delivery.stream}**, but that channel does not exist. Click [here](#channels/new) to create it.`);
    return null;
  }
}

/** The name of the message's channel when no one is subscribed to it, else null. */
async function channelWithoutSubscribers(ctx: Context, messageId: number): Promise<string | null> {
  const [row] = await ctx.db.$queryRaw<{ name: string }[]>`
    SELECT c.name FROM "Message" m JOIN "Channel" c ON c.id = m."channelId"
    WHERE m.id = ${messageId} AND NOT EXISTS (SELECT 1 FROM "Subscription" s WHERE s."channelId" = c.id AND s.active)`;
  return row?.name ?? null;
}

const botIdentity = (bot: User) => `\`${bot.deliveryEmail}\``;

/** Zulip tells a bot's owner when the third party's request cannot work as configured. */
async function tellOwnerWhy(ctx: Context, user: User, integration: Integration, error: unknown): Promise<void> {
  if (error instanceof InvalidJsonError) {
    if (integration.quietOnInvalidJson) return;
    await notifyBotOwner(ctx, user, [
      `Hi there! It looks like you tried to set up the Zulip ${integration.displayName} integration,`,
      "but didn't correctly configure the webhook to send data in the JSON format",
      'that this integration expects!',
    ].join('\n'));
  } else if (error instanceof MissingHttpEventHeaderError) {
    await notifyBotOwner(ctx, user, [
      `Hi there!  Your bot ${user.fullName} just sent an HTTP request to /api/v1/external/${integration.urlName} that`,
      `is missing the HTTP ${error.header} header.  Because this header is how`,
      `${integration.displayName} indicates the event type, this usually indicates a configuration`,
      'issue, where you either entered the URL for a different integration, or are running',
      "an older version of the third-party service that doesn't provide that header.",
      `Contact ${ctx.config.adminEmail} if you need help debugging!`,
    ].join('\n'));
  } else if (error instanceof MisconfiguredWebhookPayloadError) {
    await notifyBotOwner(ctx, user, error.ownerNotice(user.fullName, ctx.config.adminEmail));
  }
}

/**
 * Zulip's send_rate_limited_pm_notification_to_bot_owner: a direct message from the notification
 * bot to the bot's owner, at most once every five minutes per bot, so a misconfigured integration
 * firing all day does not flood its owner.
 */
async function notifyBotOwner(ctx: Context, bot: User, content: string): Promise<void> {
  if (!bot.isBot || bot.botOwnerId == null) return;
  // Claimed with one conditional write, so parallel failures send one reminder.
  const claimed = await ctx.db.$executeRaw`
    UPDATE "User" SET "lastReminder" = now() AT TIME ZONE 'UTC' WHERE id = ${bot.id}
    AND ("lastReminder" IS NULL OR "lastReminder" < now() AT TIME ZONE 'UTC' - interval '5 minutes')`;
  if (claimed) await sendAsNotificationBot(ctx, { userIds: [bot.botOwnerId] }, content);
}
