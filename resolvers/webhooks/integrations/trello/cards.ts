// What Trello's card actions say, as Zulip's zerver/webhooks/trello/view/card_actions.py writes
// them. Trello reports every change to a card as `updateCard`; which field changed says what
// happened.
import { UnsupportedWebhookEventTypeError } from '../../../errors.ts';
import { globalTime } from '../../global-time.ts';
import type { WildValue } from '../../payload.ts';

export const SUPPORTED_CARD_ACTIONS = new Set([
  'updateCard', 'createCard', 'addLabelToCard', 'removeLabelFromCard', 'addMemberToCard', 'removeMemberFromCard',
  'addAttachmentToCard', 'addChecklistToCard', 'commentCard', 'updateCheckItemStateOnCard',
]);

/** Said nothing about, whatever the payload holds. */
export const IGNORED_CARD_ACTIONS = new Set(['copyCard', 'createCheckItem', 'updateCheckItem', 'updateList']);

/** Changes to a card not worth a message: its position in its list, its cover, ... */
const IGNORED_CARD_FIELDS = ['cover', 'dueComplete', 'idAttachmentCover', 'pos'];

/** Text after the actor's name, given the action (`payload.action`). */
type Body = (action: WildValue) => string;

const quote = (text: string) => `~~~ quote\n${text}\n~~~`;

const BODIES = new Map<string, Body>([
  ['createCard', (action) => `created ${cardLink(action)}.`],
  ['changeList', (action) => {
    const data = action.get('data');
    data.get('card').get('name').str();
    const from = data.get('listBefore').get('name').str();
    const to = data.get('listAfter').get('name').str();
    return `moved ${cardLink(action)} from ${from} to ${to}.`;
  }],
  ['changeName', (action) => {
    const oldName = action.get('data').get('old').get('name').str();
    return `renamed the card from "${oldName}" to ${cardLink(action)}.`;
  }],
  ['setDesc', (action) => {
    const desc = action.get('data').get('card').get('desc').str();
    return `set description for ${cardLink(action)} to:\n${quote(desc)}`;
  }],
  ['changeDesc', (action) => {
    const data = action.get('data');
    const desc = data.get('card').get('desc').str();
    const oldDesc = data.get('old').get('desc').str();
    return `changed description for ${cardLink(action)} from\n${quote(oldDesc)}\nto\n${quote(desc)}`;
  }],
  ['removeDesc', (action) => `removed description from ${cardLink(action)}.`],
  ['archiveCard', (action) => `archived ${cardLink(action)}.`],
  ['reopenCard', (action) => `reopened ${cardLink(action)}.`],
  ['setDueDate', (action) => {
    const due = globalTime(action.get('data').get('card').get('due'));
    return `set due date for ${cardLink(action)} to ${due}.`;
  }],
  ['changeDueDate', (action) => {
    const data = action.get('data');
    const due = globalTime(data.get('card').get('due'));
    const oldDue = globalTime(data.get('old').get('due'));
    return `changed due date for ${cardLink(action)} from ${oldDue} to ${due}.`;
  }],
  ['removeDueDate', (action) => `removed the due date from ${cardLink(action)}.`],
  ['addLabelToCard', (action) => {
    const [color, text] = label(action);
    return `added a ${color} label with "${text}" to ${cardLink(action)}.`;
  }],
  ['removeLabelFromCard', (action) => {
    const [color, text] = label(action);
    return `removed a ${color} label with "${text}" from ${cardLink(action)}.`;
  }],
  ['addMemberToCard', (action) => `added ${memberName(action)} to ${cardLink(action)}.`],
  ['removeMemberFromCard', (action) => `removed ${memberName(action)} from ${cardLink(action)}.`],
  ['addAttachmentToCard', (action) => {
    const attachment = action.get('data').get('attachment');
    const url = attachment.get('url').str();
    const name = attachment.get('name').str();
    return `added [${name}](${url}) to ${cardLink(action)}.`;
  }],
  ['addChecklistToCard', (action) => {
    const checklist = action.get('data').get('checklist').get('name').str();
    return `added the ${checklist} checklist to ${cardLink(action)}.`;
  }],
  ['commentCard', (action) => {
    const text = action.get('data').get('text').str();
    return `commented on ${cardLink(action)}:\n${quote(text)}`;
  }],
  ['updateCheckItemStateOnCard', (action) => {
    const data = action.get('data');
    const checked = data.get('checkItem').get('state').str() === 'complete' ? 'checked' : 'unchecked';
    const checklist = data.get('checklist').get('name').str();
    const item = data.get('checkItem').get('name').str();
    return `${checked} **${item}** in **${checklist}** (${cardLink(action)}).`;
  }],
]);

/** The message for a card action (one of SUPPORTED_CARD_ACTIONS); null for changes said nothing about. */
export function cardMessage(payload: WildValue, actionType: string): { topic: string; content: string } | null {
  const action = payload.get('action');
  const kind = actionType === 'updateCard' ? updatedCardKind(action.get('data')) : actionType;
  if (kind === null) return null;
  const topic = action.get('data').get('board').get('name').str();
  const body = BODIES.get(kind)!(action);
  // Zulip prints a missing name as Python's None.
  const creator = action.get('memberCreator').opt('fullName').optStr() ?? 'None';
  return { topic, content: `${creator} ${body}` };
}

/** What an `updateCard` did, from the fields Trello reports as changed (`data.old`). */
function updatedCardKind(data: WildValue): string | null {
  const old = data.get('old');
  const card = data.get('card');
  if (data.opt('listBefore').truthy()) return 'changeList';
  if (old.opt('name').optStr()) return 'changeName';
  const oldDesc = old.opt('desc').optStr();
  if (oldDesc === '') return 'setDesc';
  if (oldDesc) return card.opt('desc').optStr() === '' ? 'removeDesc' : 'changeDesc';
  // A due date set for the first time was null before; a field Trello left out was not changed.
  if (old.has('due') && old.get('due').optStr() === null) return 'setDueDate';
  if (old.opt('due').optStr()) return card.has('due') && card.get('due').optStr() === null ? 'removeDueDate' : 'changeDueDate';
  if (old.opt('closed').optBool() === false && card.has('closed') && card.get('closed').bool()) return 'archiveCard';
  if (old.opt('closed').optBool() && card.opt('closed').optBool() === false) return 'reopenCard';
  if (IGNORED_CARD_FIELDS.some((field) => old.has(field))) return null;
  throw new UnsupportedWebhookEventTypeError('Trello', 'updateCard');
}

function cardLink(action: WildValue): string {
  const card = action.get('data').get('card');
  return `[${card.get('name').str()}](https://trello.com/c/${card.get('shortLink').str()})`;
}

/** The label's colour and its text. */
function label(action: WildValue): [string, string] {
  const data = action.get('data');
  return [data.get('value').str(), data.get('text').str()];
}

const memberName = (action: WildValue) => action.get('member').get('fullName').str();
