// Helpers shared by the real-client tests (test/clients/*.test.ts). Each test there sends a request
// exactly as one client sends it (see docs/clients.md): parameter values are written as the strings
// that client puts on the wire, so what reaches the server is what the client would send.
import { expect } from 'vitest';
import { rawRequest, type ApiClient, type ApiResponse, type Credentials } from '../support/client.ts';

export type Wire = Record<string, string>;

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
