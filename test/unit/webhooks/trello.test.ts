// Trello's webhooks: the messages Zulip's zerver/webhooks/trello/tests.py expects for its fixtures,
// the actions it ignores, and payloads it refuses.
import { describe, it, expect } from 'vitest';
import { UnsupportedWebhookEventTypeError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { trello } from '../../../resolvers/webhooks/integrations/trello/index.ts';
import { expectError, expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

const translate = (body: unknown) => translateWith(trello, { body, params: { stream: 'trello' } });

const WELCOME = { shortLink: 'iqXXzYEj', name: 'Welcome Board', id: '53582e2da0fac5676a714277' };
const TOMASZ = { id: '53582e2da0fac5676a714276', fullName: 'TomaszKolek', username: 'tomaszkolek' };
const TRELLO = { id: '4e6a7fad05d98b02ba00845c', fullName: 'Trello', username: 'trello' };

/** A webhook call for one action on the Welcome Board, by TomaszKolek unless `extra` says otherwise. */
function call(type: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    model: { id: WELCOME.id, name: 'Welcome Board', url: 'https://trello.com/b/iqXXzYEj/welcome-board' },
    action: { id: '572b701647e1a8d7834b186a', type, date: '2016-05-05T16:08:54.559Z', data: { board: WELCOME, ...data }, memberCreator: TOMASZ, ...extra },
  };
}

const card = (shortLink: string, name: string, more: Record<string, unknown> = {}) => ({ shortLink, idShort: 8, name, id: '53582e2da0fac5676a71428b', ...more });

function expectCard(body: unknown, content: string, topic = 'Welcome Board') {
  const outcome = translate(body);
  expectMessage(outcome, topic, content);
  expect(outcome.eventType).toBeUndefined();
}

const expectIgnored = (body: unknown) => expect(translate(body)).toEqual({ messages: [] });

describe('trello: registration', () => {
  it('is found by its URL name, without event types, and answers HEAD', () => {
    expect(integrationNamed('trello')).toBe(trello);
    expect(trello.displayName).toBe('Trello');
    expect(trello.eventTypes).toBeNull();
    expect(trello.answersHead).toBe(true);
  });
});

describe('trello: updateCard', () => {
  it('test_trello_webhook_when_card_was_moved_to_another_list', () => {
    expectCard(call('updateCard', {
      listAfter: { name: 'Intermediate', id: '53582e2da0fac5676a71427a' }, listBefore: { name: 'Basics', id: '53582e2da0fac5676a714279' },
      old: { idList: '53582e2da0fac5676a714279' }, card: card('r33ylX2Z', 'This is a card.', { idList: '53582e2da0fac5676a71427a' }),
    }), 'TomaszKolek moved [This is a card.](https://trello.com/c/r33ylX2Z) from Basics to Intermediate.');
  });

  it('test_trello_webhook_when_card_was_renamed', () => {
    expectCard(call('updateCard', { old: { name: 'Old name' }, card: card('r33ylX2Z', 'New name') }),
      'TomaszKolek renamed the card from "Old name" to [New name](https://trello.com/c/r33ylX2Z).');
  });

  const MARCO = { id: '55351ade1ed595cfa1bddf80', fullName: 'Marco Matarazzo', username: 'marcomatarazzo1' };
  const describedCard = (desc: string) => card('P2r0z66z', 'New Card', { desc });

  it('test_trello_webhook_when_description_was_added_to_card', () => {
    expectCard(call('updateCard', { old: { desc: '' }, card: describedCard('New Description') }, { memberCreator: MARCO }),
      'Marco Matarazzo set description for [New Card](https://trello.com/c/P2r0z66z) to:\n~~~ quote\nNew Description\n~~~');
  });

  it('test_trello_webhook_when_description_was_removed_from_card', () => {
    expectCard(call('updateCard', { old: { desc: 'New Description' }, card: describedCard('') }, { memberCreator: MARCO }),
      'Marco Matarazzo removed description from [New Card](https://trello.com/c/P2r0z66z).');
  });

  it('test_trello_webhook_when_description_was_changed_on_card', () => {
    expectCard(call('updateCard', { old: { desc: 'New Description' }, card: describedCard('Changed Description') }, { memberCreator: MARCO }),
      'Marco Matarazzo changed description for [New Card](https://trello.com/c/P2r0z66z) from\n~~~ quote\nNew Description\n~~~\nto\n~~~ quote\nChanged Description\n~~~');
  });

  it('test_trello_webhook_when_due_date_was_set', () => {
    expectCard(call('updateCard', { old: { due: null }, card: card('9BduUcVQ', 'Card name', { due: '2016-05-11T10:00:00.000Z' }) }),
      'TomaszKolek set due date for [Card name](https://trello.com/c/9BduUcVQ) to <time:2016-05-11T10:00:00+00:00>.');
  });

  it('test_trello_webhook_when_due_date_was_changed', () => {
    expectCard(call('updateCard', { old: { due: '2016-05-11T10:00:00.000Z' }, card: card('9BduUcVQ', 'Card name', { due: '2016-05-24T10:00:00.000Z' }) }),
      'TomaszKolek changed due date for [Card name](https://trello.com/c/9BduUcVQ) from <time:2016-05-11T10:00:00+00:00> to <time:2016-05-24T10:00:00+00:00>.');
  });

  it('test_trello_webhook_when_due_date_was_removed', () => {
    expectCard(call('updateCard', { old: { due: '2016-05-11T10:00:00.000Z' }, card: card('9BduUcVQ', 'Card name', { due: null }) }),
      'TomaszKolek removed the due date from [Card name](https://trello.com/c/9BduUcVQ).');
  });

  it('test_trello_webhook_when_card_was_archived', () => {
    expectCard(call('updateCard', { old: { closed: false }, card: card('9BduUcVQ', 'Card name', { closed: true }) }),
      'TomaszKolek archived [Card name](https://trello.com/c/9BduUcVQ).');
  });

  it('test_trello_webhook_when_card_was_reopened', () => {
    expectCard(call('updateCard', { old: { closed: true }, card: card('9BduUcVQ', 'Card name', { closed: false }) }),
      'TomaszKolek reopened [Card name](https://trello.com/c/9BduUcVQ).');
  });

  it('test_trello_webhook_when_card_is_moved_within_single_list_ignore', () => {
    expectIgnored(call('updateCard', { old: { pos: 65535 }, card: card('9BduUcVQ', 'Card name', { pos: 32767.5 }) }));
  });

  it('test_ignoring_card_updates', () => {
    for (const field of ['cover', 'dueComplete', 'idAttachmentCover', 'pos']) {
      expectIgnored({ model: 'whatever', action: { type: 'updateCard', data: { card: {}, old: { [field]: 'should-be-ignored' } } } });
    }
  });

  it('does not support changes to other fields', () => {
    expectError(() => translate(call('updateCard', { old: { idLabels: [] }, card: card('9BduUcVQ', 'Card name') })), UnsupportedWebhookEventTypeError,
      "The 'updateCard' event isn't currently supported by the Trello webhook; ignoring");
    // Closed before and after, or a card whose closing Trello left out, says nothing Zulip shows.
    expectError(() => translate(call('updateCard', { old: { closed: false }, card: card('9BduUcVQ', 'Card name') })), UnsupportedWebhookEventTypeError,
      "The 'updateCard' event isn't currently supported by the Trello webhook; ignoring");
  });
});

describe('trello: card actions', () => {
  it('test_trello_webhook_when_card_was_created', () => {
    expectCard(call('createCard', { list: { name: 'Basics' }, card: card('5qrgGdD5', 'New card') }),
      'TomaszKolek created [New card](https://trello.com/c/5qrgGdD5).');
  });

  it('test_trello_webhook_when_label_was_added_to_card', () => {
    expectCard(call('addLabelToCard', { label: { color: 'green', name: '' }, card: card('r33ylX2Z', 'Card name'), text: 'text value', value: 'green' }),
      'TomaszKolek added a green label with "text value" to [Card name](https://trello.com/c/r33ylX2Z).');
  });

  it('test_trello_webhook_when_label_was_removing_from_card', () => {
    expectCard(call('removeLabelFromCard', { label: { color: 'green', name: '' }, card: card('r33ylX2Z', 'New Card'), text: 'text value', value: 'green' }),
      'TomaszKolek removed a green label with "text value" from [New Card](https://trello.com/c/r33ylX2Z).');
  });

  it('test_trello_webhook_when_member_was_added_to_card', () => {
    expectCard(call('addMemberToCard', { card: card('9BduUcVQ', 'Card name'), idMember: TOMASZ.id }, { member: TOMASZ }),
      'TomaszKolek added TomaszKolek to [Card name](https://trello.com/c/9BduUcVQ).');
  });

  it('test_trello_webhook_when_member_was_removed_from_card', () => {
    expectCard(call('removeMemberFromCard', { card: card('9BduUcVQ', 'Card name'), idMember: TRELLO.id }, { member: TRELLO }),
      'TomaszKolek removed Trello from [Card name](https://trello.com/c/9BduUcVQ).');
  });

  it('test_trello_webhook_when_attachment_was_added_to_card', () => {
    expectCard(call('addAttachmentToCard', { card: card('xPKXoSTQ', 'New card'), attachment: { url: 'http://url.com', name: 'attachment_name' } }),
      'TomaszKolek added [attachment_name](http://url.com) to [New card](https://trello.com/c/xPKXoSTQ).');
  });

  it('test_trello_webhook_when_checklist_was_added_to_card', () => {
    expectCard(call('addChecklistToCard', { checklist: { name: 'Checklist' }, card: card('xPKXoSTQ', 'New card') }),
      'TomaszKolek added the Checklist checklist to [New card](https://trello.com/c/xPKXoSTQ).');
  });

  it('test_trello_webhook_when_comment_was_added_to_card', () => {
    expectCard(call('commentCard', { list: { name: 'Basics' }, card: card('xPKXoSTQ', 'New card'), text: 'New comment' }),
      'TomaszKolek commented on [New card](https://trello.com/c/xPKXoSTQ):\n~~~ quote\nNew comment\n~~~');
  });

  const ZULIP = { shortLink: 'l9NqJcCd', name: 'Zulip', id: '597958d15c95392f2830e9f5' };
  const EESHAN = { id: '59780df0f985476615f5ea66', fullName: 'Eeshan Garg', username: 'eeshangarg' };
  const checkItem = (state: string) => call('updateCheckItemStateOnCard', {
    board: ZULIP, checkItem: { state, name: 'Tomatoes' }, checklist: { name: 'Checklist' }, card: card('R2thJK3P', 'Something something'),
  }, { memberCreator: EESHAN });

  it('test_trello_webhook_when_check_item_is_checked', () => {
    expectCard(checkItem('complete'), 'Eeshan Garg checked **Tomatoes** in **Checklist** ([Something something](https://trello.com/c/R2thJK3P)).', 'Zulip');
  });

  it('test_trello_webhook_when_check_item_is_unchecked', () => {
    expectCard(checkItem('incomplete'), 'Eeshan Garg unchecked **Tomatoes** in **Checklist** ([Something something](https://trello.com/c/R2thJK3P)).', 'Zulip');
  });

  it('writes None for an actor without a name, as Zulip does', () => {
    expectCard(call('createCard', { card: card('5qrgGdD5', 'New card') }, { memberCreator: { id: TOMASZ.id } }),
      'None created [New card](https://trello.com/c/5qrgGdD5).');
  });

  it('test_ignored_card_actions', () => {
    for (const type of ['copyCard', 'createCheckItem', 'updateCheckItem', 'updateList']) expectIgnored({ model: 'whatever', action: { type } });
  });
});

describe('trello: board actions', () => {
  it('test_trello_webhook_when_member_was_removed_from_board', () => {
    expectCard(call('removeMemberFromBoard', { idMember: TRELLO.id }, { member: TRELLO }),
      'TomaszKolek removed Trello from [Welcome Board](https://trello.com/b/iqXXzYEj).');
  });

  it('test_trello_webhook_when_member_was_added_to_board', () => {
    expectCard(call('addMemberToBoard', { idMemberAdded: TRELLO.id, memberType: 'normal' }, { member: TRELLO }),
      'TomaszKolek added Trello to [Welcome Board](https://trello.com/b/iqXXzYEj).');
  });

  it('test_trello_webhook_when_list_was_added_to_board', () => {
    expectCard(call('createList', { list: { name: 'New list', id: '5735a5b4f3ab7cbd4e1f1c8d' } }),
      'TomaszKolek added New list list to [Welcome Board](https://trello.com/b/iqXXzYEj).');
  });

  it('test_trello_webhook_when_board_was_renamed', () => {
    expectCard(call('updateBoard', { board: { ...WELCOME, name: 'New name' }, old: { name: 'Welcome Board' } }),
      'TomaszKolek renamed the board from Welcome Board to [New name](https://trello.com/b/iqXXzYEj).', 'New name');
  });

  it('test_trello_webhook_when_board_background_is_changed_ignore', () => {
    expectIgnored(call('updateBoard', { board: { ...WELCOME, prefs: { background: 'green' } }, old: { prefs: { background: 'blue' } } }));
  });

  it('does not support other changes to a board', () => {
    expectError(() => translate(call('updateBoard', { old: { name: '', desc: 'x' } })), UnsupportedWebhookEventTypeError,
      "The 'updateBoard' event isn't currently supported by the Trello webhook; ignoring");
  });
});

describe('trello: other actions', () => {
  it('are not supported', () => {
    expectError(() => translate(call('deleteCard', { card: { idShort: 1 } })), UnsupportedWebhookEventTypeError,
      "The 'deleteCard' event isn't currently supported by the Trello webhook; ignoring");
    expectError(() => translate(call('constructor', {})), UnsupportedWebhookEventTypeError,
      "The 'constructor' event isn't currently supported by the Trello webhook; ignoring");
  });
});

describe('trello: malformed payloads', () => {
  it('refuses a body that is not JSON, or without an action type', () => {
    expect(refusalOf(() => translate('HEAD')).message).toBe('Malformed JSON');
    expect(refusalOf(() => translate({ model: {} })).message).toBe('payload["action"] is missing');
    expect(refusalOf(() => translate({ action: { type: 7 } })).message).toBe('payload["action"]["type"] is not a string');
    expect(refusalOf(() => translate([])).message).toBe('payload is not a dict');
  });

  it('refuses missing or mistyped fields with their path', () => {
    expect(refusalOf(() => translate({ action: { type: 'updateCard', data: { card: {} } } })).message).toBe('payload["action"]["data"]["old"] is missing');
    expect(refusalOf(() => translate({ action: { type: 'updateCard', data: { card: {}, old: 'x' } } })).message).toBe('payload["action"]["data"]["old"] is not a dict');
    expect(refusalOf(() => translate(call('createCard', { card: { name: 'n' } }))).message).toBe('payload["action"]["data"]["card"]["shortLink"] is missing');
    expect(refusalOf(() => translate(call('updateCard', { old: { name: 3 }, card: card('a', 'b') }))).message).toBe('payload["action"]["data"]["old"]["name"] is not a string');
    expect(refusalOf(() => translate(call('updateCard', { old: { closed: false }, card: card('a', 'b', { closed: null }) }))).message)
      .toBe('payload["action"]["data"]["card"]["closed"] is not a boolean');
    expect(refusalOf(() => translate(call('addMemberToBoard', {}))).message).toBe('payload["action"]["member"] is missing');
    expect(refusalOf(() => translate(call('createList', { list: {} }, { memberCreator: {} }))).message).toBe('payload["action"]["data"]["list"]["name"] is missing');
    expect(refusalOf(() => translate(call('updateBoard', { old: { prefs: null } }))).message).toBe('payload["action"]["data"]["old"]["prefs"] is not a dict');
  });

  it('refuses a due date that is not a date', () => {
    expect(refusalOf(() => translate(call('updateCard', { old: { due: null }, card: card('a', 'b', { due: 'tomorrow' }) }))).message)
      .toBe('payload["action"]["data"]["card"]["due"] is not a date and time with a time zone');
    // Trello left out the new date: Zulip reads it as changed and finds no date.
    expect(refusalOf(() => translate(call('updateCard', { old: { due: '2016-05-11T10:00:00.000Z' }, card: card('a', 'b') }))).message)
      .toBe('payload["action"]["data"]["card"]["due"] is missing');
  });
});
