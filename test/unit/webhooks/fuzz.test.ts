// Hostile input for every integration: seeded random requests (bodies that are not JSON, JSON of
// every type, objects built from the keys third parties use, with their event names in the usual
// headers and fields) must be translated or refused with one of the domain's errors, never a
// TypeError (which the server would answer with a 500).
import { describe, expect, it } from 'vitest';
import { ParleyError } from '../../../resolvers/errors.ts';
import { INTEGRATIONS } from '../../../resolvers/webhooks/integrations/index.ts';
import { IncomingWebhookRequest } from '../../../resolvers/webhooks/request.ts';

const REQUESTS_PER_INTEGRATION = 400;

/** mulberry32: a small seeded generator, so a failure can be replayed. */
function generator(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Keys the integrations read, so random objects reach past their first checks.
const KEYS = [
  'action', 'actor', 'alert', 'alerts', 'annotations', 'app', 'assignee', 'attachments', 'author', 'base', 'blocks', 'board',
  'branch', 'build', 'builds', 'card', 'changelog', 'changes', 'channel', 'check_run', 'comment', 'commit', 'commits', 'compare',
  'content', 'created', 'data', 'deleted', 'description', 'display', 'email', 'event', 'eventKey', 'event_type', 'fields',
  'forced', 'head', 'html_url', 'id', 'incident', 'issue', 'items', 'key', 'labels', 'list', 'message', 'messages', 'model',
  'name', 'number', 'object_attributes', 'object_kind', 'payload', 'pipeline', 'project', 'pull_request', 'pullRequest', 'ref',
  'ref_type', 'release', 'repository', 'resource', 'review', 'sender', 'state', 'status', 'subject', 'text', 'title', 'topic',
  'type', 'url', 'user', 'user_name', 'value', 'webhookEvent', 'workflow', 'heading', 'alert_type_friendly_name', 'hostname',
];
const HEADERS = ['X-GitHub-Event', 'X-Gitlab-Event', 'X-Gitea-Event', 'X-Gogs-Event', 'X-Event-Key', 'Sentry-Hook-Resource'];

function fuzzer(seed: number, words: string[]) {
  const random = generator(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const scalar = (): unknown => pick<() => unknown>([
    () => null, () => true, () => false, () => 0, () => -1, () => 1.5, () => 2 ** 40, () => '', () => ' ', () => pick(words),
    () => 'https://example.com/a?b=c', () => '2024-01-02T03:04:05Z', () => 'constructor', () => '__proto__', () => '\u0000\ud800',
  ])();
  const value = (depth: number): unknown => {
    const roll = random();
    if (depth <= 0 || roll < 0.4) return scalar();
    if (roll < 0.6) return Array.from({ length: Math.floor(random() * 3) }, () => value(depth - 1));
    return object(depth - 1);
  };
  const object = (depth: number): Record<string, unknown> =>
    Object.fromEntries(Array.from({ length: 1 + Math.floor(random() * 8) }, () => [pick(KEYS), value(depth)]));
  const body = (): string => pick<() => string>([
    () => 'not json', () => '', () => JSON.stringify(scalar()), () => JSON.stringify(value(2)),
    () => JSON.stringify(object(4)), () => JSON.stringify(object(4)), () => JSON.stringify(object(5)),
  ])();
  const headers = (): Record<string, string> => {
    const chosen: Record<string, string> = random() < 0.5 ? { 'Content-Type': 'application/json' } : {};
    for (const name of HEADERS) if (random() < 0.5) chosen[name] = pick(words);
    return chosen;
  };
  const params = (): Record<string, string> => (random() < 0.3 ? { payload: body(), branches: pick(words), topic: pick(words) } : {});
  return { body, headers, params };
}

describe('every integration, on hostile requests', () => {
  for (const integration of INTEGRATIONS) {
    it(`${integration.urlName}: translates or refuses with the domain's errors`, () => {
      const words = [...(integration.eventTypes ?? []), 'push', 'opened', 'created', 'firing', 'issue', 'pr:opened', 'jira:issue_updated', 'auth'];
      const seed = [...integration.urlName].reduce((h, c) => Math.imul(h, 31) + c.charCodeAt(0), 7);
      const fuzz = fuzzer(seed, words);
      for (let i = 0; i < REQUESTS_PER_INTEGRATION; i++) {
        const request = new IncomingWebhookRequest({ body: fuzz.body(), headers: fuzz.headers(), params: fuzz.params() });
        try {
          const outcome = integration.translate(request, []);
          for (const message of outcome.messages) {
            expect(typeof message.topic).toBe('string');
            expect(typeof message.content).toBe('string');
          }
        } catch (error) {
          if (!(error instanceof ParleyError)) {
            throw new Error(`request ${i} (seed ${seed}): ${String(error)}\n${request.body.slice(0, 500)}`);
          }
        }
      }
    });
  }
});
