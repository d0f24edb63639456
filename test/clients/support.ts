// Helpers shared by the real-client tests (test/clients/*.test.ts). Each test there sends a request
// exactly as one client sends it (see docs/clients.md): parameter values are written as the strings
// that client puts on the wire, so what reaches the server is what the client would send.
import { expect } from 'vitest';
import { rawRequest, type ApiClient, type ApiResponse, type Credentials } from '../support/client.ts';
import { validateEvent } from '../support/openapi.ts';

export type Wire = Record<string, string>;

export interface ZulipEventOut {
  id: number;
  type: string;
  [key: string]: any;
}

/** A queue registered with the given wire parameters; `events()` drains it without blocking. */
export async function openQueue(client: ApiClient, params: Wire) {
  const res = await client.post('/register', params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  let last = res.body.last_event_id as number;
  const queueId = res.body.queue_id as string;
  return {
    state: res.body as Record<string, any>,
    queueId,
    async events(): Promise<ZulipEventOut[]> {
      const polled = await client.get('/events', { queue_id: queueId, last_event_id: String(last), dont_block: 'true' });
      expect(polled.status, JSON.stringify(polled.body)).toBe(200);
      const events = (polled.body.events as ZulipEventOut[]).filter((e) => e.type !== 'heartbeat');
      for (const event of events) validateEvent(event);
      if (polled.body.events.length) last = Math.max(last, ...polled.body.events.map((e: ZulipEventOut) => e.id));
      return events;
    },
  };
}

/** The one event of `type` (and `op`) among `events`. */
export function only(events: ZulipEventOut[], type: string, op?: string): ZulipEventOut {
  const found = events.filter((e) => e.type === type && (op === undefined || e.op === op));
  expect(found, `${type}${op ? `/${op}` : ''} in ${JSON.stringify(events)}`).toHaveLength(1);
  return found[0]!;
}

/**
 * A multipart/form-data request built by hand: file parts carry exactly the headers given (the
 * Python client's carry no Content-Type), fields are plain strings.
 */
export function multipart(
  baseUrl: string, method: string, path: string, credentials: Credentials,
  fields: Wire, files: { name: string; filename: string; bytes: Buffer; contentType?: string }[] = [],
  userAgent = 'ZulipPython/0.9.0 (Debian GNU/Linux; 12)',
): Promise<ApiResponse> {
  const boundary = '----clientshape' + Math.random().toString(16).slice(2);
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    const type = file.contentType ? `Content-Type: ${file.contentType}\r\n` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\n${type}\r\n`));
    chunks.push(file.bytes, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const body = Buffer.concat(chunks);
  return rawRequest(method, `${baseUrl}/api/v1${path}`, {
    authorization: 'Basic ' + Buffer.from(`${credentials.email}:${credentials.apiKey}`).toString('base64'),
    'content-type': `multipart/form-data; boundary=${boundary}`,
    'content-length': String(body.length),
    'user-agent': userAgent,
  }, body);
}

/** A 1×1 transparent PNG. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** The fields every client reads from a message record, with their JSON types. */
export function expectMessageRecord(message: Record<string, any>) {
  expect(message).toMatchObject({
    id: expect.any(Number), sender_id: expect.any(Number), sender_full_name: expect.any(String),
    sender_email: expect.any(String), sender_realm_str: expect.any(String), timestamp: expect.any(Number),
    content: expect.any(String), content_type: expect.any(String), client: expect.any(String),
    is_me_message: expect.any(Boolean), reactions: expect.any(Array), submessages: expect.any(Array),
    topic_links: expect.any(Array), recipient_id: expect.any(Number),
  });
  if (message.type === 'stream') {
    expect(message).toMatchObject({ stream_id: expect.any(Number), display_recipient: expect.any(String), subject: expect.any(String) });
  } else {
    expect(message.type).toBe('private');
    for (const r of message.display_recipient) expect(r).toMatchObject({ id: expect.any(Number), email: expect.any(String), full_name: expect.any(String) });
  }
}
