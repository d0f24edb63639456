// Wekan's outgoing webhooks, against the messages Zulip's zerver/webhooks/wekan/tests.py expects.
import { describe, expect, it } from 'vitest';
import { BadRequestError, InvalidJsonError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { wekan } from '../../../resolvers/webhooks/integrations/wekan.ts';
import type { WebhookOutcome } from '../../../resolvers/webhooks/integration.ts';
import { expectError, expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

const CARD_URL = 'http://127.0.0.1/b/Jinj4Xj7qnHLRmrTY/bucket-list/pMtu7kPZvMuhhC4hL';
const BOARD_URL = 'http://127.0.0.1/b/Jinj4Xj7qnHLRmrTY/bucket-list';
const TOPIC = 'Wekan Notification';

/** What Wekan posts: its sentence, the URL on the last line, and a few fields Zulip ignores. */
function send(text: string, description = 'act-addComment'): WebhookOutcome {
  return translateWith(wekan, { body: { text, cardId: 'pMtu7kPZvMuhhC4hL', boardId: 'Jinj4Xj7qnHLRmrTY', user: 'JohnFish', card: "Markdown and emoji's", description } });
}

describe('card activity', () => {
  it('reports a comment', () => {
    expectMessage(send(`JohnFish commented on card "Markdown and emoji's": "This feature is important" at list "Design" at swimlane "Default" at board "Bucket List"\n${CARD_URL}`), TOPIC,
      `JohnFish commented on card "Markdown and emoji's": "This feature is important" at list "Design" at swimlane "Default" at board "Bucket List".\n\n[See in Wekan](${CARD_URL})`);
  });

  it('reports a card moved between lists', () => {
    expectMessage(send(`JohnFish moved card "Markdown and emoji's" at board "Bucket List" from list "Development & Implementation" at swimlane "Default" to list "Design" at swimlane "Default"\n${CARD_URL}`, 'act-moveCard'), TOPIC,
      `JohnFish moved card "Markdown and emoji's" at board "Bucket List" from list "Development & Implementation" at swimlane "Default" to list "Design" at swimlane "Default".\n\n[See in Wekan](${CARD_URL})`);
  });

  it('reports an attachment', () => {
    expectMessage(send(`JohnFish added attachment "hGfm5ksud8k" to card "Markdown and emoji's" at list "Design" at swimlane "Default" at board "Bucket List"\n${CARD_URL}`, 'act-addAttachment'), TOPIC,
      `JohnFish added attachment "hGfm5ksud8k" to card "Markdown and emoji's" at list "Design" at swimlane "Default" at board "Bucket List".\n\n[See in Wekan](${CARD_URL})`);
  });

  it('keeps the activity\'s name where Wekan has no sentence for it', () => {
    expectMessage(send(`JohnFish act-setCustomField\n${CARD_URL}`, 'act-setCustomField'), TOPIC,
      `JohnFish act-setCustomField.\n\n[See in Wekan](${CARD_URL})`);
  });
});

describe('board activity', () => {
  it('reports a new list', () => {
    expectMessage(send(`JohnFish added list "Testing & Maintenance" to board "Bucket List"\n${BOARD_URL}`, 'act-createList'), TOPIC,
      `JohnFish added list "Testing & Maintenance" to board "Bucket List".\n\n[See in Wekan](${BOARD_URL})`);
  });

  it('reports an archived swimlane', () => {
    expectMessage(send(`JohnFish Swimlane "Default" at board "Bucket List" moved to Archive\n${BOARD_URL}`, 'act-archivedSwimlane'), TOPIC,
      `JohnFish Swimlane "Default" at board "Bucket List" moved to Archive.\n\n[See in Wekan](${BOARD_URL})`);
  });

  it('drops every line break and every copy of the URL from the sentence', () => {
    expectMessage(send(`JohnFish removed\nlist ${BOARD_URL}\n${BOARD_URL}`), TOPIC, `JohnFish removedlist .\n\n[See in Wekan](${BOARD_URL})`);
  });
});

describe('the integration', () => {
  it('is registered with Zulip\'s name and no event types', () => {
    expect(integrationNamed('wekan')).toBe(wekan);
    expect(wekan.displayName).toBe('Wekan');
    expect(wekan.eventTypes).toBeNull();
    expect(send(`JohnFish act-removeList\n${BOARD_URL}`).eventType).toBeUndefined();
  });
});

describe('refusals', () => {
  it('refuses a payload without text', () => {
    expectError(() => translateWith(wekan, { body: { user: 'JohnFish' } }), BadRequestError, 'payload["text"] is missing');
    expectError(() => translateWith(wekan, { body: { text: 42 } }), BadRequestError, 'payload["text"] is not a string');
    expectError(() => translateWith(wekan, { body: ['text'] }), BadRequestError, 'payload is not a dict');
  });

  it('refuses a body that is not JSON', () => {
    expect(refusalOf(() => translateWith(wekan, { body: 'text=hello' }))).toBeInstanceOf(InvalidJsonError);
  });
});
