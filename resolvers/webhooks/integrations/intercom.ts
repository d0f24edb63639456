// Intercom's webhooks, as Zulip's zerver/webhooks/intercom renders them: one message per topic
// (Intercom's name for the event), in a Zulip topic named after the contact or user concerned.
// Conversation text arrives as HTML and is quoted with its tags stripped.
import { BadRequestError, UnsupportedWebhookEventTypeError } from '../../errors.ts';
import type { Integration } from '../integration.ts';
import type { WildValue } from '../payload.ts';

type Handler = (item: WildValue) => [topic: string, body: string];

const HANDLERS = new Map<string, Handler>([
  ['company.created', (item) => ['Companies', `New company **${item.get('name').str()}** created:\n`
    + `* **User count**: ${item.get('user_count').int()}\n* **Monthly spending**: ${item.get('monthly_spend').int()}`]],
  ['contact.added_email', (item) => [topicFor(item), `New email ${item.get('email').str()} added to contact.`]],
  ['contact.created', (item) => {
    const name = orNone(item.opt('name').optStr() || item.opt('pseudonym').optStr());
    const body = `New contact created:\n* **Name (or pseudonym)**: ${name}\n* **Email**: ${item.get('email').str()}\n* **Location**: ${location(item)}`;
    return [topicFor(item), body];
  }],
  ['contact.signed_up', signedUp],
  ['contact.tag.created', (item) => [topicFor(item.get('contact')), `Contact tagged with the \`${item.get('tag').get('name').str()}\` tag.`]],
  ['contact.tag.deleted', (item) => [topicFor(item.get('contact')), `The tag \`${item.get('tag').get('name').str()}\` was removed from the contact.`]],
  ['conversation.admin.assigned', (item) => [topicFor(item.get('user')), `${item.get('assignee').get('name').str()} assigned to conversation.`]],
  ['conversation.admin.closed', adminAction('closed')],
  ['conversation.admin.opened', adminAction('opened')],
  ['conversation.admin.snoozed', adminAction('snoozed')],
  ['conversation.admin.unsnoozed', adminAction('unsnoozed')],
  ['conversation.admin.replied', adminReply('replied to')],
  ['conversation.admin.noted', adminReply('added a note to')],
  ['conversation.admin.single.created', (item) => {
    const admin = nameOf(item.get('assignee'));
    const user = item.get('user');
    return [topicFor(user), initiated(admin, item.get('conversation_message').get('body').str())];
  }],
  ['conversation.user.created', (item) => {
    const user = item.get('user');
    return [topicFor(user), initiated(nameOf(user), item.get('conversation_message').get('body').str())];
  }],
  ['conversation.user.replied', (item) => {
    const user = item.get('user');
    return [topicFor(user), replied(nameOf(user), 'replied to', firstPart(item))];
  }],
  ['event.created', (item) => ['Events', `New event **${item.get('event_name').str()}** created.`]],
  ['user.created', (item) => [topicFor(item), `New user created:\n* **Name**: ${item.get('name').str()}\n* **Email**: ${item.get('email').str()}`]],
  ['user.deleted', (item) => [topicFor(item), 'User deleted.']],
  ['user.email.updated', (item) => [topicFor(item), `User's email was updated to ${item.get('email').str()}.`]],
  ['user.tag.created', userTagged('added to')],
  ['user.tag.deleted', userTagged('removed from')],
  ['user.unsubscribed', (item) => [topicFor(item), 'User unsubscribed from emails.']],
  // Zulip has no sample of it, but Intercom documents it as contact.signed_up's twin.
  ['visitor.signed_up', signedUp],
]);

export const intercom: Integration = {
  urlName: 'intercom',
  displayName: 'Intercom',
  eventTypes: [...HANDLERS.keys()],
  // Intercom checks the URL with a HEAD request when the webhook is set up.
  answersHead: true,
  translate(request) {
    const payload = request.payload();
    const eventType = payload.get('topic').str();
    if (eventType === 'ping') return { messages: [] };
    const handler = HANDLERS.get(eventType);
    if (!handler) throw new UnsupportedWebhookEventTypeError('Intercom', eventType);
    const [topic, content] = handler(payload.get('data').get('item'));
    return { eventType, messages: [{ topic, content }] };
  },
};

/** `Contact: Jane`, `User: jane@example.com`, `Lead: ...`: the first of the name, pseudonym and email that is set. */
function topicFor(person: WildValue): string {
  const type = capitalize(person.get('type').str());
  const name = person.opt('name').optStr() || person.opt('pseudonym').optStr() || person.opt('email').optStr();
  return `${type}: ${orNone(name)}`;
}

/** Python's format of an optional string: a missing name prints as None. */
function orNone(text: string | null): string {
  return text ?? 'None';
}

function nameOf(person: WildValue): string {
  return orNone(person.opt('name').optStr());
}

function location(contact: WildValue): string {
  const data = contact.get('location_data');
  return `${data.get('city_name').str()}, ${data.get('region_name').str()}, ${data.get('country_name').str()}`;
}

function signedUp(contact: WildValue): [string, string] {
  return [topicFor(contact), `Contact signed up:\n* **Email**: ${contact.get('email').str()}\n* **Location**: ${location(contact)}`];
}

function adminAction(action: string): Handler {
  return (item) => {
    const admin = nameOf(item.get('assignee'));
    return [topicFor(item.get('user')), `${admin} ${action} the conversation.`];
  };
}

function adminReply(action: string): Handler {
  return (item) => {
    const admin = item.get('assignee');
    const user = item.get('user');
    const part = firstPart(item);
    return [topicFor(user), replied(nameOf(admin), action, part)];
  };
}

function userTagged(action: string): Handler {
  return (item) => {
    const user = item.get('user');
    const tag = item.get('tag');
    return [topicFor(user), `The tag \`${tag.get('name').str()}\` was ${action} the user.`];
  };
}

/** The reply's or note's HTML: the conversation's first part. */
function firstPart(item: WildValue): string {
  const list = item.get('conversation_parts').get('conversation_parts');
  const first = list.list()[0];
  if (!first) throw new BadRequestError(`${list.varName}[0] is missing`);
  return first.get('body').str();
}

function replied(name: string, action: string, html: string): string {
  return `${name} ${action} the conversation:\n\n\`\`\` quote\n${stripTags(html)}\n\`\`\``;
}

function initiated(name: string, html: string): string {
  return `${name} initiated a conversation:\n\n\`\`\` quote\n${stripTags(html)}\n\`\`\``;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1).toLowerCase();
}

const NAMED_ENTITIES = new Map([
  ['amp', '&'], ['lt', '<'], ['gt', '>'], ['quot', '"'], ['apos', "'"], ['nbsp', '\u00a0'],
]);

/**
 * The text of an HTML fragment, as Python's HTMLParser hands it over (Zulip's strip_tags): tags and
 * comments dropped, character references decoded. Like Zulip's, which never closes the parser, a
 * tag or reference cut off at the very end is lost.
 */
export function stripTags(html: string): string {
  const text = html
    .replace(/<!--[\s\S]*?(?:-->|$)|<[!?][^>]*(?:>|$)|<\/?[a-zA-Z][^>]*(?:>|$)|<\/[^>]*>/g, '')
    // A reference at the end with nothing after it may be incomplete: Python's parser waits for more.
    .replace(/&[^\s;]{0,33}$/, '');
  return text.replace(/&(?:#(\d+)|#[xX]([0-9a-fA-F]+)|([a-zA-Z][a-zA-Z0-9]*));?/g, (whole, dec?: string, hex?: string, name?: string) => {
    if (name !== undefined) return NAMED_ENTITIES.get(name) ?? whole;
    const code = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex!, 16);
    if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
    return String.fromCodePoint(code);
  });
}
