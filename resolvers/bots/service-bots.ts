// Service bots at work: outgoing-webhook bots POST a message that mentions them (in a channel) or is
// sent to them (directly) to their URL, and post the JSON reply's `content` back in the same place;
// embedded bots answer from a handler inside the server. Both run after the message is committed,
// outside the sender's request (Zulip's outgoing_webhooks and embedded_bots queue workers), so a
// slow or failing service never delays or fails the sending. Failures are told where the bot was
// asked ("Failure! ...") and to the bot's owner by a direct message from the bot, as Zulip's
// fail_with_message and notify_bot_owner do; timeouts and connection errors are retried first.
import type { User } from '../../prisma/generated/client/client.ts';
import type { Services } from '../../server/context.ts';
import type { Context } from '../../schema/context.ts';
import { sendMessage, type SendInput } from '../messages/send.ts';
import type { MessageView } from '../messages/present.ts';
import { toZulipMessage } from '../messages/wire.ts';
import { realmUrl } from '../realm/urls.ts';
import { messageUrl } from '../scheduled/links.ts';
import { EMBEDDED_BOTS } from './embedded.ts';
import { EMBEDDED_BOT, OUTGOING_WEBHOOK_BOT, SLACK_INTERFACE } from './bots.ts';

/** Zulip's OUTGOING_WEBHOOK_TIMEOUT_SECONDS. */
const TIMEOUT_MS = 10_000;
/** Further attempts after a timeout or a connection error (Zulip's MAX_REQUEST_RETRIES). */
const MAX_REQUEST_RETRIES = 3;
const RETRY_DELAY_MS = 200;

export type Trigger = 'mention' | 'direct_message';

export interface TriggeredMessage {
  realmId: number;
  view: MessageView;
  /** The service bots the message triggers, with why. */
  bots: { botId: number; trigger: Trigger }[];
}

/** Which of the message's mentioned users or direct recipients are active service bots, and why. */
export async function serviceBotTriggers(
  ctx: Pick<Context, 'db'>, sender: User, kind: 'channel' | 'direct', mentionedIds: Iterable<number>, recipientIds: number[],
): Promise<TriggeredMessage['bots']> {
  // Messages from bots trigger nothing, so two bots cannot answer each other forever.
  if (sender.isBot) return [];
  const candidates = kind === 'channel' ? [...mentionedIds] : recipientIds;
  const ids = candidates.filter((id) => id !== sender.id);
  if (!ids.length) return [];
  const bots = await ctx.db.user.findMany({
    where: { id: { in: ids }, isBot: true, isActive: true, botType: { in: [OUTGOING_WEBHOOK_BOT, EMBEDDED_BOT] } },
    select: { id: true }, orderBy: { id: 'asc' },
  });
  return bots.map((b) => ({ botId: b.id, trigger: kind === 'channel' ? 'mention' : 'direct_message' }));
}

/** Zulip's extract_query_without_mention: the message without the bot's leading mention. */
function withoutLeadingMention(content: string, bot: Pick<User, 'id' | 'fullName'>): string {
  const extended = new RegExp(`^@\\*\\*.*\\|${bot.id}\\*\\*`).exec(content);
  if (extended) return content.slice(extended[0].length).trimStart();
  const mention = `@**${bot.fullName}**`;
  if (content.startsWith(mention)) return content.slice(mention.length).trimStart();
  return content;
}

export class ServiceBots {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly services: Services, private readonly log: (line: string) => void = () => {}) {}

  /** Starts the bots' work on a committed message; returns at once. */
  dispatch(message: TriggeredMessage): void {
    for (const { botId, trigger } of message.bots) {
      const work: Promise<void> = this.serve(message, botId, trigger)
        .catch((error) => this.log(`service bot ${botId}: ${(error as Error).message}`))
        .finally(() => this.running.delete(work));
      this.running.add(work);
    }
  }

  /** Resolves when no bot is working (tests, and shutdown). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  private async serve(message: TriggeredMessage, botId: number, trigger: Trigger): Promise<void> {
    const { db } = this.services;
    const bot = await db.user.findUnique({ where: { id: botId }, include: { botProfile: true } });
    if (!bot?.isActive || !bot.botProfile) return;
    const realm = await db.realm.findUniqueOrThrow({ where: { id: message.realmId } });
    const ctx = (clientName: string): Context => ({ ...this.services, realm, user: bot, clientName });
    const reply = (content: string, clientName: string) => this.reply(ctx(clientName), bot, message.view, content);

    if (bot.botType === EMBEDDED_BOT) {
      const handler = EMBEDDED_BOTS.get(bot.botProfile.serviceName ?? '');
      const query = trigger === 'mention' ? withoutLeadingMention(message.view.rawContent, bot) : message.view.rawContent;
      const content = handler?.(query);
      if (content) await reply(content, 'Internal');
      return;
    }
    const profile = bot.botProfile;
    const url = profile.serviceBaseUrl;
    if (!url) return;
    const slack = profile.serviceInterface === SLACK_INTERFACE;
    const context = ctx('OutgoingWebhookResponse');
    // Zulip's fail_with_message: the bot says what went wrong where it was asked.
    const fail = (failure: string) => reply(`Failure! ${failure}`, 'OutgoingWebhookResponse');
    if (slack && message.view.type === 'private') {
      await fail("Slack outgoing webhooks don't support direct messages.");
      return;
    }
    const request = slack ? slackRequest(message.view, bot, profile.serviceToken ?? '', trigger) : genericRequest(message.view, bot, profile.serviceToken ?? '', trigger);
    let response: Response | null = null;
    let lastError: 'timeout' | 'connection' = 'connection';
    // Timeouts and connection errors are retried (Zulip's MAX_REQUEST_RETRIES), error statuses not.
    for (let attempt = 0; attempt <= MAX_REQUEST_RETRIES && !response; attempt++) {
      if (attempt) await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS * attempt));
      try {
        response = await fetch(url, { method: 'POST', ...request, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'manual' });
      } catch (error) {
        lastError = (error as Error).name === 'TimeoutError' ? 'timeout' : 'connection';
      }
    }
    if (!response) {
      await fail('Bot is unavailable');
      await this.notifyOwner(context, bot, message.view, lastError === 'timeout'
        ? `Request timed out after ${TIMEOUT_MS / 1000} seconds.`
        : 'A connection error occurred. Is my bot server down?');
      return;
    }
    const text = await response.text();
    if (!response.ok) {
      await fail(`Third party responded with ${response.status}`);
      await this.notifyOwner(context, bot, message.view, `The webhook got a response with status code *${response.status}*.`, text);
      return;
    }
    let body: unknown;
    let problem: string | null = null;
    try {
      body = JSON.parse(text);
      // Old bot servers answered a JSON "" for "no reply".
      if (body === '') return;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) problem = 'Invalid response format';
    } catch {
      problem = 'Invalid JSON in response';
    }
    if (problem) {
      await fail(problem);
      await this.notifyOwner(context, bot, message.view,
        `The outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n> ${problem}`, text);
      return;
    }
    const content = replyContent(body, slack);
    if (content?.trim()) await reply(content, 'OutgoingWebhookResponse');
  }

  /** Posts the bot's reply where the message was: its topic, or its direct conversation. */
  private async reply(ctx: Context, bot: User, view: MessageView, content: string): Promise<void> {
    const input: SendInput = view.type === 'stream'
      ? { type: 'stream', to: view.streamId, topic: view.topic, content }
      : { type: 'private', to: (view.displayRecipient as { id: number }[]).map((r) => r.id), content };
    await sendMessage(ctx, bot, input, { system: true });
  }

  /** Zulip's notify_bot_owner: a direct message from the bot to its owner about the failure. */
  private async notifyOwner(ctx: Context, bot: User, view: MessageView, failure: string, responseContent?: string): Promise<void> {
    this.log(`outgoing webhook of bot ${bot.id}: ${failure}`);
    if (!bot.botOwnerId) return;
    const participants = view.type === 'private' ? (view.displayRecipient as { id: number }[]).map((r) => r.id) : [];
    const url = messageUrl(realmUrl(ctx.realm, ctx.config), { id: view.id, channelId: view.streamId, topic: view.topic }, view.type === 'stream' ? (view.displayRecipient as string) : null, participants);
    let content = `[A message](${url}) to your bot @_**${bot.fullName}** triggered an outgoing webhook.\n${failure}`;
    if (responseContent) content += `\nThe response contains the following payload:\n\`\`\`\n${JSON.stringify(responseContent)}\n\`\`\``;
    await sendMessage(ctx, bot, { type: 'private', to: [bot.botOwnerId], content }, { system: true });
  }
}

/** Zulip's GenericOutgoingWebhookService: JSON with the message as its API shows it (raw Markdown content). */
function genericRequest(view: MessageView, bot: User, token: string, trigger: Trigger): RequestInit {
  const message = toZulipMessage({ ...view, content: view.rawContent, flags: undefined, matchContent: undefined, matchSubject: undefined, contentType: undefined });
  delete message.flags;
  message.rendered_content = view.renderedContent;
  const body = { data: view.rawContent, message, bot_email: bot.email, bot_full_name: bot.fullName, token, trigger };
  return { headers: { 'Content-Type': 'application/json', 'User-Agent': 'ZulipOutgoingWebhook/Parley' }, body: JSON.stringify(body) };
}

/** Zulip's SlackOutgoingWebhookService: Slack's form fields. */
function slackRequest(view: MessageView, bot: User, token: string, trigger: Trigger): RequestInit {
  const form = new URLSearchParams({
    token,
    team_id: view.senderRealmStr,
    team_domain: view.senderRealmStr,
    channel_id: String(view.streamId ?? ''),
    channel_name: typeof view.displayRecipient === 'string' ? view.displayRecipient : '',
    thread_ts: String(view.timestamp),
    timestamp: String(view.timestamp),
    user_id: String(view.senderId),
    user_name: view.senderFullName,
    text: view.rawContent,
    trigger_word: trigger,
    service_id: String(bot.id),
  });
  return { headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': 'ZulipOutgoingWebhook/Parley' }, body: form.toString() };
}

/** Zulip's process_success: `content` (or the legacy `response_string`; Slack's `text`), unless no reply is wanted. */
function replyContent(body: unknown, slack: boolean): string | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const json = body as Record<string, unknown>;
  if (slack) return json.text != null ? String(json.text) : null;
  if (json.response_not_required) return null;
  if (json.response_string != null) return String(json.response_string);
  if (json.content != null) return String(json.content);
  return null;
}
