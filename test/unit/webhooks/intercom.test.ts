// Intercom's webhooks: the messages Zulip's zerver/webhooks/intercom/tests.py expects, its ping, and
// payloads Zulip refuses.
import { describe, expect, it } from 'vitest';
import { BadRequestError, InvalidJsonError, UnsupportedWebhookEventTypeError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { intercom, stripTags } from '../../../resolvers/webhooks/integrations/intercom.ts';
import { expectError, expectMessage, translateWith } from '../../support/webhooks.ts';

const translate = (body: unknown) => translateWith(intercom, { body, params: { stream: 'test' } });
const notification = (topic: string, item: unknown) => ({ type: 'notification_event', app_id: 'xpjxx8yk', topic, data: { type: 'notification_event_data', item } });

const STJOHNS = { city_name: "St. John's", region_name: 'Newfoundland and Labrador', country_name: 'Canada' };
const EESHAN_LEAD = { type: 'lead', id: '5c9a5c2f', name: 'Eeshan Garg', email: '' };
const CORDELIA = { type: 'admin', id: '2767442', name: "Cordelia, Lear's daughter", email: 'cordelia@zulip.com' };
const conversation = (assignee: unknown, parts: unknown[], user: unknown = EESHAN_LEAD) => ({
  type: 'conversation', id: '20823400420', user, assignee, conversation_parts: { type: 'conversation_part.list', conversation_parts: parts },
});

describe('intercom: registration', () => {
  it('is found by its URL name, answers HEAD and lists Zulip\'s event types', () => {
    expect(integrationNamed('intercom')).toBe(intercom);
    expect(intercom.displayName).toBe('Intercom');
    expect(intercom.answersHead).toBe(true);
    expect(intercom.eventTypes).toHaveLength(24);
    expect(intercom.eventTypes).toContain('visitor.signed_up');
  });
});

describe('intercom: ping', () => {
  it('test_ping_ignore', () => {
    expect(translate({ type: 'notification_event', topic: 'ping', data: { item: { type: 'ping', message: 'Hi' } } }).messages).toEqual([]);
  });
});

describe('intercom: company.created', () => {
  it('test_company_created', () => {
    expectMessage(translate(notification('company.created', { type: 'company', name: 'Kandra Labs', user_count: 1, monthly_spend: 0 })), 'Companies',
      'New company **Kandra Labs** created:\n* **User count**: 1\n* **Monthly spending**: 0', 'company.created');
  });
});

describe('intercom: contact.*', () => {
  const azure = { type: 'contact', name: null, pseudonym: "Azure Bus from St. John's", email: 'aaron@zulip.com', location_data: STJOHNS };

  it('test_contact_added_email', () => {
    expectMessage(translate(notification('contact.added_email', { ...azure, email: 'jerryguitarist@gmail.com' })), "Contact: Azure Bus from St. John's",
      'New email jerryguitarist@gmail.com added to contact.', 'contact.added_email');
  });

  it('test_contact_created', () => {
    expectMessage(translate(notification('contact.created', azure)), "Contact: Azure Bus from St. John's",
      "New contact created:\n* **Name (or pseudonym)**: Azure Bus from St. John's\n* **Email**: aaron@zulip.com\n* **Location**: St. John's, Newfoundland and Labrador, Canada");
  });

  it('test_contact_signed_up', () => {
    const contact = { type: 'user', name: null, pseudonym: "Lilac Raindrop from St. John's", email: 'iago@zulip.com', location_data: STJOHNS };
    expectMessage(translate(notification('contact.signed_up', contact)), "User: Lilac Raindrop from St. John's",
      "Contact signed up:\n* **Email**: iago@zulip.com\n* **Location**: St. John's, Newfoundland and Labrador, Canada");
    expectMessage(translate(notification('visitor.signed_up', contact)), "User: Lilac Raindrop from St. John's",
      "Contact signed up:\n* **Email**: iago@zulip.com\n* **Location**: St. John's, Newfoundland and Labrador, Canada", 'visitor.signed_up');
  });

  it('test_contact_tag_created', () => {
    const item = { type: 'contact_tag', tag: { type: 'tag', name: 'developer' }, contact: { type: 'contact', name: 'Eeshan Garg', email: '' } };
    expectMessage(translate(notification('contact.tag.created', item)), 'Contact: Eeshan Garg', 'Contact tagged with the `developer` tag.');
  });

  it('test_contact_tag_deleted', () => {
    const item = { type: 'contact_tag', tag: { type: 'tag', name: 'developer' }, contact: { type: 'contact', name: 'Eeshan Garg', email: '' } };
    expectMessage(translate(notification('contact.tag.deleted', item)), 'Contact: Eeshan Garg', 'The tag `developer` was removed from the contact.');
  });

  it('names a contact with nothing set None, as Zulip does', () => {
    const item = { type: 'contact', name: '', pseudonym: null, email: null };
    expectMessage(translate(notification('user.deleted', item)), 'Contact: None', 'User deleted.');
  });
});

describe('intercom: conversation.admin.*', () => {
  it('test_conversation_admin_assigned', () => {
    expectMessage(translate(notification('conversation.admin.assigned', conversation({ type: 'admin', name: 'Tim Abbott' }, []))), 'Lead: Eeshan Garg', 'Tim Abbott assigned to conversation.');
  });

  it('test_conversation_admin_opened', () => {
    const lead = { type: 'lead', name: "Cordelia, Lear's daughter" };
    expectMessage(translate(notification('conversation.admin.opened', conversation({ type: 'admin', name: 'Eeshan Garg' }, [], lead))), "Lead: Cordelia, Lear's daughter", 'Eeshan Garg opened the conversation.');
  });

  it.each(['closed', 'snoozed', 'unsnoozed'])('test_conversation_admin_%s', (action) => {
    expectMessage(translate(notification(`conversation.admin.${action}`, conversation(CORDELIA, []))), 'Lead: Eeshan Garg', `Cordelia, Lear's daughter ${action} the conversation.`, `conversation.admin.${action}`);
  });

  it('test_conversation_admin_replied', () => {
    const outcome = translate(notification('conversation.admin.replied', conversation(CORDELIA, [{ type: 'conversation_part', part_type: 'comment', body: '<p>Hey Eeshan! How can I help?</p>' }])));
    expectMessage(outcome, 'Lead: Eeshan Garg', "Cordelia, Lear's daughter replied to the conversation:\n\n``` quote\nHey Eeshan! How can I help?\n```");
  });

  it('test_conversation_admin_noted', () => {
    const outcome = translate(notification('conversation.admin.noted', conversation(CORDELIA, [{ part_type: 'note', body: "<p>Talk to Tim about this user's query.</p>" }])));
    expectMessage(outcome, 'Lead: Eeshan Garg', "Cordelia, Lear's daughter added a note to the conversation:\n\n``` quote\nTalk to Tim about this user's query.\n```");
  });

  it('test_conversation_admin_single_created', () => {
    const item = { ...conversation(CORDELIA, []), conversation_message: { type: 'conversation_message', body: "<p>Hi Eeshan, What's up</p>" } };
    expectMessage(translate(notification('conversation.admin.single.created', item)), 'Lead: Eeshan Garg', "Cordelia, Lear's daughter initiated a conversation:\n\n``` quote\nHi Eeshan, What's up\n```");
  });

  it('writes an unnamed admin None, as Zulip does', () => {
    expectMessage(translate(notification('conversation.admin.closed', conversation({ type: 'nobody', name: null }, []))), 'Lead: Eeshan Garg', 'None closed the conversation.');
  });
});

describe('intercom: conversation.user.*', () => {
  it('test_conversation_user_created', () => {
    const rose = { type: 'lead', name: "Rose Poodle from St. John's", email: '' };
    const item = { ...conversation({ type: 'nobody_admin', id: null }, [], rose), conversation_message: { body: '<p>Hello everyone!</p>' } };
    expectMessage(translate(notification('conversation.user.created', item)), "Lead: Rose Poodle from St. John's", "Rose Poodle from St. John's initiated a conversation:\n\n``` quote\nHello everyone!\n```");
  });

  it('test_conversation_user_replied', () => {
    const item = conversation({ type: 'nobody_admin' }, [{ body: '<p>Well, I need some help getting access to a developer account.</p>' }]);
    expectMessage(translate(notification('conversation.user.replied', item)), 'Lead: Eeshan Garg', 'Eeshan Garg replied to the conversation:\n\n``` quote\nWell, I need some help getting access to a developer account.\n```');
  });
});

describe('intercom: event.created', () => {
  it('test_event_created', () => {
    expectMessage(translate(notification('event.created', { type: 'event', event_name: 'invited-friend' })), 'Events', 'New event **invited-friend** created.');
  });
});

describe('intercom: user.*', () => {
  it('test_user_created', () => {
    expectMessage(translate(notification('user.created', { type: 'user', name: 'Aaron Smith', email: 'aaron@zulip.com' })), 'User: Aaron Smith', 'New user created:\n* **Name**: Aaron Smith\n* **Email**: aaron@zulip.com');
  });

  it('test_user_deleted', () => {
    expectMessage(translate(notification('user.deleted', { type: 'user', email: 'jerryguitarist@gmail.com' })), 'User: jerryguitarist@gmail.com', 'User deleted.');
  });

  it('test_user_email_updated', () => {
    expectMessage(translate(notification('user.email.updated', { type: 'contact', pseudonym: "Azure Bus from St. John's", email: 'aaron@zulip.com' })),
      "Contact: Azure Bus from St. John's", "User's email was updated to aaron@zulip.com.");
  });

  it('test_user_tag_created', () => {
    const item = { type: 'user_tag', tag: { name: 'developer' }, user: { type: 'user', name: 'eeshangarg' } };
    expectMessage(translate(notification('user.tag.created', item)), 'User: eeshangarg', 'The tag `developer` was added to the user.');
  });

  it('test_user_tag_deleted', () => {
    const item = { type: 'user_tag', tag: { name: 'CSV Import - 2019-03-26 22:46:04 UTC' }, user: { type: 'user', name: 'eeshangarg' } };
    expectMessage(translate(notification('user.tag.deleted', item)), 'User: eeshangarg', 'The tag `CSV Import - 2019-03-26 22:46:04 UTC` was removed from the user.');
  });

  it('test_user_unsubscribed', () => {
    expectMessage(translate(notification('user.unsubscribed', { type: 'contact', name: 'Eeshan Garg' })), 'Contact: Eeshan Garg', 'User unsubscribed from emails.');
  });
});

describe('intercom: strip_tags', () => {
  it('drops tags and comments and decodes references, as Python\'s HTMLParser', () => {
    expect(stripTags('<p>a &amp; b &lt;c&gt; &#39;d&#x27; <!-- hidden --><br/>e</p>')).toBe("a & b <c> 'd' e");
    expect(stripTags('1 < 2 and &unknown; stay')).toBe('1 < 2 and &unknown; stay');
    expect(stripTags('cut <b')).toBe('cut ');
  });
});

describe('intercom: refusals', () => {
  it('refuses an event it does not know', () => {
    expectError(() => translate(notification('conversation.admin.away_mode_updated', {})), UnsupportedWebhookEventTypeError,
      "The 'conversation.admin.away_mode_updated' event isn't currently supported by the Intercom webhook; ignoring");
    expectError(() => translate(notification('constructor', {})), UnsupportedWebhookEventTypeError,
      "The 'constructor' event isn't currently supported by the Intercom webhook; ignoring");
  });

  it('refuses malformed payloads with a 400', () => {
    expectError(() => translate({ data: {} }), BadRequestError, 'payload["topic"] is missing');
    expectError(() => translate(notification('company.created', { name: 'K', user_count: '1', monthly_spend: 0 })), BadRequestError,
      'payload["data"]["item"]["user_count"] is not an integer');
    expectError(() => translate(notification('user.deleted', { name: 'x' })), BadRequestError, 'payload["data"]["item"]["type"] is missing');
    expectError(() => translate(notification('user.deleted', { type: 'user', name: 5 })), BadRequestError, 'payload["data"]["item"]["name"] is not a string');
    expectError(() => translate(notification('conversation.user.replied', conversation({}, []))), BadRequestError,
      'payload["data"]["item"]["conversation_parts"]["conversation_parts"][0] is missing');
    expectError(() => translate('{'), InvalidJsonError, 'Malformed JSON');
  });
});
