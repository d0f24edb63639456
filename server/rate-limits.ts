// Zulip's rate limits (zerver/lib/rate_limiter.py, DEFAULT_RATE_LIMITING_RULES in
// zproject/default_settings.py): requests per user, requests per IP address without accepted
// credentials, and login attempts per account; counted with rate-limiter-flexible in Redis when
// REDIS_URL is set, so every process shares the counters, else in this process's memory.
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimitedError } from '../resolvers/errors.ts';

export interface RateLimitRule {
  requests: number;
  seconds: number;
}

export interface RateLimitConfig {
  /** Zulip's RATE_LIMITING (on by default; off in the test suite except where a test turns it on). */
  enabled: boolean;
  /** Every request with accepted credentials, per user (REST, /graphql, each WebSocket operation). Zulip: 200 per minute. */
  apiByUser: RateLimitRule;
  /** Every request without accepted credentials, per IP address (logging in, spectators). Zulip: 100 per minute. */
  apiByIp: RateLimitRule;
  /** Login attempts (fetch_api_key) per account, successful ones clearing the count. Zulip: 5 per 30 minutes. */
  authenticateByUsername: RateLimitRule;
  /**
   * Address-change confirmations mailed per user (PATCH /settings `email`): they go to addresses the
   * server has no relationship with, so they could spend its mail reputation. Zulip: 2 an hour (and 5 a day).
   */
  emailChangeByUser: RateLimitRule;
  /** Event queues one user may have at once (Zulip has no such limit; its queues expire after 10 idle minutes). */
  maxEventQueuesPerUser: number;
}

export const DEFAULT_RATE_LIMITS: RateLimitConfig = {
  enabled: true,
  apiByUser: { requests: 200, seconds: 60 },
  apiByIp: { requests: 100, seconds: 60 },
  authenticateByUsername: { requests: 5, seconds: 1800 },
  emailChangeByUser: { requests: 2, seconds: 3600 },
  maxEventQueuesPerUser: 100,
};

export type RateLimitDomain = 'apiByUser' | 'apiByIp' | 'authenticateByUsername' | 'emailChangeByUser';

/** A rule in the form `requests/seconds` (PARLEY_RATE_LIMIT_*), or the default. */
export function parseRule(value: string | undefined, fallback: RateLimitRule): RateLimitRule {
  if (!value) return fallback;
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value);
  if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) throw new Error(`a rate limit is "requests/seconds", not "${value}"`);
  return { requests: Number(match[1]), seconds: Number(match[2]) };
}

/** What Zulip reports of the limit a request counted against (its X-RateLimit-* headers). */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window resets (X-RateLimit-Reset is the Unix time of that moment). */
  resetSecs: number;
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(Math.floor(Date.now() / 1000 + state.resetSecs)),
  };
}

const seconds = (ms: number) => Math.round(ms) / 1000;

export class RateLimits {
  private readonly limiters = new Map<RateLimitDomain, RateLimiterAbstract>();

  constructor(readonly config: RateLimitConfig, redis: { command: Redis; prefix: string } | null) {
    for (const domain of ['apiByUser', 'apiByIp', 'authenticateByUsername', 'emailChangeByUser'] as const) {
      const rule = config[domain];
      const options = { points: rule.requests, duration: rule.seconds, keyPrefix: `rl:${domain}` };
      // Should Redis fail, each process goes on counting by itself rather than refusing everyone.
      const memory = new RateLimiterMemory(options);
      this.limiters.set(domain, redis
        ? new RateLimiterRedis({ ...options, keyPrefix: `${redis.prefix}rl:${domain}`, storeClient: redis.command, insuranceLimiter: memory })
        : memory);
    }
  }

  get enabled(): boolean {
    return this.config.enabled;
  }

  /**
   * Counts one request against `domain` for `key`: the state for the X-RateLimit-* headers, or null
   * when rate limiting is off. Over the limit, the state says so and `refusal` is the error to answer.
   */
  async consume(domain: RateLimitDomain, key: string): Promise<{ state: RateLimitState; refusal: RateLimitedError | null } | null> {
    if (!this.config.enabled) return null;
    const limit = this.config[domain].requests;
    try {
      const res = await this.limiters.get(domain)!.consume(key);
      return { state: { limit, remaining: res.remainingPoints, resetSecs: seconds(res.msBeforeNext) }, refusal: null };
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      const wait = seconds(error.msBeforeNext);
      return { state: { limit, remaining: 0, resetSecs: wait }, refusal: new RateLimitedError(wait) };
    }
  }

  /** Forgets `key`'s count (a successful login clears the failed attempts before it, as in Zulip). */
  async clear(domain: RateLimitDomain, key: string): Promise<void> {
    if (this.config.enabled) await this.limiters.get(domain)!.delete(key);
  }
}
