// Response bodies with parts already serialized: a long-poll answering a thousand queues with one
// event serializes that event once (resolvers/events/queue.ts eventJson), not once per answer.

/** A value already in JSON, put into a response body as it is. */
export class RawJson {
  constructor(readonly json: string) {}
}

/** JSON.stringify(body), with each top-level RawJson field written as its JSON. */
export function stringifyBody(body: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    const json = value instanceof RawJson ? value.json : JSON.stringify(value);
    if (json !== undefined) parts.push(`${JSON.stringify(key)}:${json}`);
  }
  return `{${parts.join(',')}}`;
}

/** Whether the body has a RawJson field (and so needs stringifyBody rather than Koa's JSON). */
export function hasRawJson(body: unknown): body is Record<string, unknown> {
  if (!body || typeof body !== 'object') return false;
  for (const value of Object.values(body)) if (value instanceof RawJson) return true;
  return false;
}
