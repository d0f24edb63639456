// Test servers share the developer's (or CI's) Redis: each gets its own key prefix, and its keys
// are removed when it closes, so parallel test files neither collide nor leave anything behind.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/** Only [a-z0-9_:-], so the prefix is also a literal SCAN pattern. */
export function uniqueRedisPrefix(label: string): string {
  return `parley-test:${label}:${process.pid}-${randomBytes(4).toString('hex')}:`;
}

export async function dropRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
