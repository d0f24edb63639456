// Zapier's webhooks and Zulip's Zapier app: the messages Zulip's zerver/webhooks/zapier/tests.py
// expects, the app's credentials check, and bodies it refuses.
import { describe, it, expect } from 'vitest';
import { BadRequestError } from '../../../resolvers/errors.ts';
import { normalizeContent } from '../../../resolvers/messages/send.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { zapier } from '../../../resolvers/webhooks/integrations/zapier.ts';
import { expectError, expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

const translate = (body: unknown) => translateWith(zapier, { body, params: { stream: 'zapier' } });

/** The message as sent: Zulip's tests see the content after sending strips its trailing whitespace. */
function expectSent(body: unknown, topic: string, content: string) {
  const outcome = translate(body);
  expectMessage({ ...outcome, messages: outcome.messages.map((m) => ({ ...m, content: normalizeContent(m.content) })) }, topic, content);
  expect(outcome.eventType).toBeUndefined();
}

describe('zapier: registration', () => {
  it('is found by its URL name, without event types, and spares the owner malformed JSON', () => {
    expect(integrationNamed('zapier')).toBe(zapier);
    expect(zapier.displayName).toBe('Zapier');
    expect(zapier.eventTypes).toBeNull();
    expect(zapier.quietOnInvalidJson).toBe(true);
  });
});

describe('zapier: messages', () => {
  it('test_zapier_when_subject_and_body_are_correct', () => {
    expectSent({ content: 'Your email content is: \nMy Email content.\n', subject: 'New email from zulip@zulip.com' },
      'New email from zulip@zulip.com', 'Your email content is: \nMy Email content.');
  });

  it('test_zapier_when_topic_and_body_are_correct', () => {
    expectSent({ content: 'Your email content is: \nMy Email content.\n', topic: 'New email from zulip@zulip.com' },
      'New email from zulip@zulip.com', 'Your email content is: \nMy Email content.');
  });

  it('test_zapier_weather_update', () => {
    expectSent({ content: 'Foggy in the morning.\nMaximum temperature to be 24.\nMinimum temperature to be 12', subject: 'Here is your weather update for the day:' },
      'Here is your weather update for the day:', 'Foggy in the morning.\nMaximum temperature to be 24.\nMinimum temperature to be 12');
  });

  it('prefers topic to subject, and takes a null topic as absent', () => {
    expectSent({ topic: 'new', subject: 'old', content: 'x' }, 'new', 'x');
    expectSent({ topic: null, subject: 'old', content: 'x' }, 'old', 'x');
  });

  it('sends an ordinary message for another type', () => {
    expectSent({ type: 'message', topic: 't', content: 'c' }, 't', 'c');
  });
});

describe('zapier: auth', () => {
  it('answers with the sender rather than sending (test_auth)', () => {
    expect(translate({ type: 'auth' })).toEqual({ messages: [], answerWithSender: true });
    expect(translate({ type: 'auth', topic: 't', content: 'c' })).toEqual({ messages: [], answerWithSender: true });
  });
});

describe('zapier: refusals', () => {
  it('refuses a body without a topic or content', () => {
    expectError(() => translate({ content: 'c' }), BadRequestError, "Topic can't be empty");
    expectError(() => translate({ subject: null, content: 'c' }), BadRequestError, "Topic can't be empty");
    expectError(() => translate({ topic: 't' }), BadRequestError, "Content can't be empty");
    expectError(() => translate({}), BadRequestError, "Topic can't be empty");
  });

  it('refuses values of the wrong type with WildValue\'s sentence', () => {
    expect(refusalOf(() => translate({ type: 1 })).message).toBe('payload["type"] is not a string');
    expect(refusalOf(() => translate({ topic: { wrong: 'example' }, content: 'c' })).message).toBe('payload["topic"] is not a string');
    expect(refusalOf(() => translate({ topic: 't', content: ['c'] })).message).toBe('payload["content"] is not a string');
    expect(refusalOf(() => translate({ subject: 5, content: 'c' })).message).toBe('payload["subject"] is not a string');
  });

  it('refuses a body that is not JSON, or not an object', () => {
    expect(refusalOf(() => translate('topic=t&content=c')).message).toBe('Malformed JSON');
    expect(refusalOf(() => translate(['auth'])).message).toBe('payload is not a dict');
    expect(refusalOf(() => translate('null')).message).toBe('payload is not a dict');
  });

  it('does not trip over keys named like Object.prototype members', () => {
    expectError(() => translate({ constructor: 'x', content: 'c' }), BadRequestError, "Topic can't be empty");
  });
});
