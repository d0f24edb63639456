// What the integrations' unit tests (test/unit/webhooks/) share: a request as the framework builds
// it, the message as it will be sent, and refusals with the status Zulip answers them with.
import { expect } from 'vitest';
import { ParleyError, UnsupportedWebhookEventTypeError } from '../../resolvers/errors.ts';
import { truncateTopic } from '../../resolvers/messages/topics.ts';
import type { Integration, WebhookOutcome } from '../../resolvers/webhooks/integration.ts';
import { IncomingWebhookRequest } from '../../resolvers/webhooks/request.ts';

/** Runs the integration on a request: a body given as anything but a string is sent as JSON. */
export function translateWith(
  integration: Integration,
  request: { body: unknown; headers?: Record<string, string>; params?: Record<string, string> },
): WebhookOutcome {
  const body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
  return integration.translate(new IncomingWebhookRequest({ body, headers: request.headers, params: request.params }));
}

/** The outcome is one message, with this topic once sent (long ones are cut) and this content. */
export function expectMessage(outcome: WebhookOutcome, topic: string, content: string, eventType?: string): void {
  expect(outcome.messages).toHaveLength(1);
  expect(truncateTopic(outcome.messages[0]!.topic)).toBe(topic);
  expect(outcome.messages[0]!.content).toBe(content);
  if (eventType !== undefined) expect(outcome.eventType).toBe(eventType);
}

/**
 * The error `run` throws: always one of the domain's, answered with 200 for an unsupported event
 * (as Zulip does) and 400 for anything else, never a TypeError.
 */
export function refusalOf(run: () => unknown): ParleyError {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught, 'the request was accepted').toBeInstanceOf(ParleyError);
  const error = caught as ParleyError;
  expect(error.httpStatus).toBe(error instanceof UnsupportedWebhookEventTypeError ? 200 : 400);
  return error;
}

/** `run` throws a `type` error with this message. */
export function expectError(run: () => unknown, type: abstract new (...args: never[]) => Error, message: string): ParleyError {
  const error = refusalOf(run);
  expect(error).toBeInstanceOf(type);
  expect(error.message).toBe(message);
  return error;
}
