// POST /register: create a queue for the caller and return the initial state it starts from.
// The queue exists before the state is read, so nothing that happens in between is missed.
import type { Context } from '../../schema/context.ts';
import { checkNarrowForEvents } from '../messages/narrow-filter.ts';
import { BadRequestError, NotLoggedInError, RateLimitedError } from '../errors.ts';
import { isGuest } from '../users/roles.ts';
import { ZULIP_FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from '../realm/version.ts';
import { DEFAULT_IDLE_QUEUE_TIMEOUT_SECS, MOBILE_IDLE_QUEUE_TIMEOUT_SECS } from './queues.ts';
import type { QueueOptions } from './queue.ts';
import { botDefaults } from '../bots/bots.ts';

export const CLIENT_CAPABILITIES = [
  'notification_settings_null', 'bulk_message_deletion', 'user_avatar_url_field_optional',
  'stream_typing_notifications', 'user_settings_object', 'linkifier_url_template', 'user_list_incomplete',
  'include_deactivated_groups', 'archived_channels', 'empty_topic_name', 'simplified_presence_events',
  'individual_emoji_changes',
] as const;

export interface RegisterInput {
  applyMarkdown?: boolean | null;
  clientGravatar?: boolean | null;
  includeSubscribers?: string | null;
  slimPresence?: boolean | null;
  presenceHistoryLimitDays?: number | null;
  eventTypes?: string[] | null;
  fetchEventTypes?: string[] | null;
  allPublicStreams?: boolean | null;
  narrow?: unknown;
  clientCapabilities?: unknown;
  /** Seconds, or Zulip's `"mobile"`. */
  idleQueueTimeout?: number | 'mobile' | null;
}

export interface RegisterResult {
  queueId: string;
  lastEventId: number;
  idleQueueTimeoutSecs: number;
  state: Record<string, unknown>;
}

function parseNarrow(raw: unknown): [string, string][] {
  if (raw == null) return [];
  if (!Array.isArray(raw)) throw new BadRequestError('Invalid narrow');
  const narrow = raw.map((term, i): [string, string] => {
    if (Array.isArray(term) && term.length === 2 && typeof term[0] === 'string') return [term[0], String(term[1])];
    if (term && typeof term === 'object' && typeof (term as any).operator === 'string') return [(term as any).operator, String((term as any).operand)];
    throw new BadRequestError(`Invalid narrow[${i}]`);
  });
  checkNarrowForEvents(narrow);
  return narrow;
}

function parseCapabilities(raw: unknown): Record<string, boolean> {
  if (raw == null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new BadRequestError('client_capabilities is not a dict');
  const out: Record<string, boolean> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof value !== 'boolean') throw new BadRequestError(`client_capabilities["${key}"] is not a boolean`);
    // Unknown capabilities are ignored, as Zulip ignores them.
    if ((CLIENT_CAPABILITIES as readonly string[]).includes(key)) out[key] = value;
  }
  return out;
}

function idleTimeoutSecs(input: RegisterInput): number {
  if (input.idleQueueTimeout === 'mobile') return MOBILE_IDLE_QUEUE_TIMEOUT_SECS;
  return input.idleQueueTimeout ?? DEFAULT_IDLE_QUEUE_TIMEOUT_SECS;
}

/**
 * A user's event queues are bounded (RateLimitConfig.maxEventQueuesPerUser): past it, Zulip's
 * RATE_LIMIT_HIT, `retry-after` being when the first of them becomes idle enough to be collected
 * (or one is deleted, DELETE /events). Concurrent registrations may pass the count together.
 */
async function checkQueueLimit(ctx: Context, userId: number): Promise<void> {
  const limits = ctx.rateLimits;
  if (!limits?.enabled) return;
  const max = limits.config.maxEventQueuesPerUser;
  const { count, nextExpiry } = await ctx.queues.userQueues(userId);
  if (count < max) return;
  const wait = Math.max(1, Math.ceil(((nextExpiry ?? Date.now()) - Date.now()) / 1000));
  throw new RateLimitedError(wait, `Too many event queues (limit: ${max}); delete one or let one expire`);
}

export async function registerQueue(ctx: Context, input: RegisterInput): Promise<RegisterResult> {
  const user = ctx.user;
  const includeSubscribers = input.includeSubscribers ?? 'false';
  if (!['true', 'false', 'partial'].includes(includeSubscribers)) throw new BadRequestError('Invalid include_subscribers');
  if (!user) {
    // Spectators may register only where web-public access is on, and with the spec's restrictions.
    if (!(ctx.config.webPublicStreamsEnabled && ctx.realm.enableSpectatorAccess)) throw new NotLoggedInError();
    if (input.clientGravatar === true) throw new BadRequestError("Invalid 'client_gravatar' parameter for anonymous request");
    if (includeSubscribers === 'true') throw new BadRequestError("Invalid 'include_subscribers' parameter for anonymous request");
  }
  // Zulip's _default_narrow and _default_all_public_streams: a bot's defaults where its client says nothing.
  const defaults = user ? await botDefaults(ctx.db, user) : null;
  let narrow = parseNarrow(input.narrow);
  if (!narrow.length && defaults?.registerChannelName) narrow = [['stream', defaults.registerChannelName]];
  const options: QueueOptions = {
    eventTypes: input.eventTypes ?? null,
    narrow,
    applyMarkdown: input.applyMarkdown ?? false,
    clientGravatar: input.clientGravatar ?? user !== null,
    allPublicStreams: input.allPublicStreams ?? defaults?.allPublicChannels ?? false,
    capabilities: parseCapabilities(input.clientCapabilities),
    idleTimeoutSecs: idleTimeoutSecs(input),
  };
  // Guests and spectators may not follow every public channel (spectators see web-public ones only).
  if (options.allPublicStreams && (!user || isGuest(user))) throw new BadRequestError('User not authorized for this query');
  if (user) await checkQueueLimit(ctx, user.id);
  const queue = await ctx.queues.register(ctx.realm.id, user?.id ?? null, options);
  try {
    const { buildInitialState } = await import('./initial-state/index.ts');
    const state = await buildInitialState(ctx, user, {
      fetchEventTypes: input.fetchEventTypes ?? input.eventTypes ?? null,
      applyMarkdown: options.applyMarkdown,
      clientGravatar: options.clientGravatar,
      includeSubscribers: includeSubscribers as 'true' | 'false' | 'partial',
      slimPresence: input.slimPresence ?? false,
      presenceHistoryLimitDays: input.presenceHistoryLimitDays ?? 14,
      capabilities: options.capabilities,
      narrow: options.narrow,
      allPublicStreams: options.allPublicStreams,
    });
    return {
      queueId: queue.id,
      lastEventId: queue.lastEventId,
      idleQueueTimeoutSecs: options.idleTimeoutSecs,
      state: { zulip_feature_level: ZULIP_FEATURE_LEVEL, zulip_version: ZULIP_VERSION, zulip_merge_base: ZULIP_MERGE_BASE, ...state },
    };
  } catch (error) {
    // The state's error matters more than a failed cleanup; an orphaned queue expires when idle.
    await Promise.resolve().then(() => ctx.queues.delete(queue)).catch(() => {});
    throw error;
  }
}
