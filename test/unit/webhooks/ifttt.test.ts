// IFTTT's web requests: the messages Zulip's zerver/webhooks/ifttt/tests.py expects, and the bodies
// it refuses.
import { describe, it, expect } from 'vitest';
import { BadRequestError } from '../../../resolvers/errors.ts';
import { ifttt } from '../../../resolvers/webhooks/integrations/ifttt.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { expectError, expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

const translate = (body: unknown) => translateWith(ifttt, { body, params: { stream: 'ifttt' } });

describe('ifttt: registration', () => {
  it('is found by its URL name, without event types', () => {
    expect(integrationNamed('ifttt')).toBe(ifttt);
    expect(ifttt.displayName).toBe('IFTTT');
    expect(ifttt.eventTypes).toBeNull();
  });
});

describe('ifttt: messages', () => {
  it('test_ifttt_when_subject_and_body_are_correct', () => {
    const outcome = translate({ subject: 'Email sent from email@email.com', content: 'Email subject: Subject' });
    expectMessage(outcome, 'Email sent from email@email.com', 'Email subject: Subject');
    expect(outcome.eventType).toBeUndefined();
  });

  it('test_ifttt_when_topic_and_body_are_correct', () => {
    expectMessage(translate({ topic: 'Email sent from email@email.com', content: 'Email subject: Subject' }),
      'Email sent from email@email.com', 'Email subject: Subject');
  });

  it('prefers topic to subject', () => {
    expectMessage(translate({ topic: 'new', subject: 'old', content: 'c' }), 'new', 'c');
  });
});

describe('ifttt: refusals', () => {
  it('test_ifttt_when_topic_is_missing', () => {
    expectError(() => translate({ content: 'Email subject: Subject' }), BadRequestError, "Topic can't be empty");
  });

  it('test_ifttt_when_content_is_missing', () => {
    expectError(() => translate({ topic: 'Email sent from email@email.com' }), BadRequestError, "Content can't be empty");
  });

  it('test_ifttt_when_topic_is_dict', () => {
    expectError(() => translate({ topic: { wrong: 'example' }, content: 'Email subject: Subject' }), BadRequestError, 'Malformed payload');
  });

  it('test_ifttt_when_content_is_dict', () => {
    expectError(() => translate({ topic: 'Email sent from email@email.com', content: { wrong: 'example' } }), BadRequestError, 'Malformed payload');
  });

  it('refuses a subject of the wrong type, and a body that is not an object, as malformed', () => {
    expectError(() => translate({ subject: 1, content: 'c' }), BadRequestError, 'Malformed payload');
    expectError(() => translate(['topic', 'content']), BadRequestError, 'Malformed payload');
    expectError(() => translate('"text"'), BadRequestError, 'Malformed payload');
  });

  it('refuses a body that is not JSON', () => {
    expect(refusalOf(() => translate('content=c')).message).toBe('Malformed JSON');
  });
});
