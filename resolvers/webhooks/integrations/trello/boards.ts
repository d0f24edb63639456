// What Trello's board actions say, as Zulip's zerver/webhooks/trello/view/board_actions.py writes
// them.
import { UnsupportedWebhookEventTypeError } from '../../../errors.ts';
import type { WildValue } from '../../payload.ts';

export const SUPPORTED_BOARD_ACTIONS = new Set(['removeMemberFromBoard', 'addMemberToBoard', 'createList', 'updateBoard']);

/** Text after the actor's name, given the action (`payload.action`). */
type Body = (action: WildValue) => string;

const BODIES = new Map<string, Body>([
  ['removeMemberFromBoard', (action) => `removed ${memberName(action)} from ${boardLink(action)}.`],
  ['addMemberToBoard', (action) => `added ${memberName(action)} to ${boardLink(action)}.`],
  ['createList', (action) => {
    const list = action.get('data').get('list').get('name').str();
    return `added ${list} list to ${boardLink(action)}.`;
  }],
  ['changeName', (action) => {
    const oldName = action.get('data').get('old').get('name').str();
    return `renamed the board from ${oldName} to ${boardLink(action)}.`;
  }],
]);

/** The message for a board action (one of SUPPORTED_BOARD_ACTIONS); null for changes said nothing about. */
export function boardMessage(payload: WildValue, actionType: string): { topic: string; content: string } | null {
  const action = payload.get('action');
  const kind = actionType === 'updateBoard' ? updatedBoardKind(action.get('data')) : actionType;
  if (kind === null) return null;
  const topic = action.get('data').get('board').get('name').str();
  const body = BODIES.get(kind)!(action);
  const creator = action.get('memberCreator').get('fullName').str();
  return { topic, content: `${creator} ${body}` };
}

/** What an `updateBoard` did: a new name, or a new background (said nothing about). */
function updatedBoardKind(data: WildValue): string | null {
  const old = data.get('old');
  // Read as an object whenever present, as Zulip does.
  if (old.has('prefs') && old.get('prefs').entries().some(([key]) => key === 'background')) return null;
  if (old.get('name').str()) return 'changeName';
  throw new UnsupportedWebhookEventTypeError('Trello', 'updateBoard');
}

function boardLink(action: WildValue): string {
  const board = action.get('data').get('board');
  return `[${board.get('name').str()}](https://trello.com/b/${board.get('shortLink').str()})`;
}

const memberName = (action: WildValue) => action.get('member').get('fullName').str();
