// Widgets (Zulip's zerver/lib/widget.py, zerver/views/submessage.py, zerver/actions/submessage.py):
// a message whose content starts with `/poll` or `/todo` gets a first "widget" submessage defining
// it; participants then attach submessages (votes, options, tasks, strikes), which clients replay in
// ID order to show its state. The server only checks each submessage's shape and who may send it.
import { applyParticipation } from '../topics/auto-policies.ts';
import { Prisma, type User } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../schema/context.ts';
import { BadRequestError } from '../errors.ts';
import { inTransaction } from '../transaction.ts';
import { accessMessage, messageAudience } from './access.ts';

/** A submessage on the wire (message records' `submessages`). */
export interface SubmessageRecord {
  id: number;
  message_id: number;
  sender_id: number;
  msg_type: string;
  content: string;
}

export interface SubmessageEvent {
  type: 'submessage';
  msg_type: string;
  message_id: number;
  submessage_id: number;
  sender_id: number;
  content: string;
}

declare module '../events/kinds.ts' {
  interface EventKinds {
    submessage: SubmessageEvent;
  }
}

export function submessageRecord(row: { id: number; messageId: number; senderId: number; msgType: string; content: string }): SubmessageRecord {
  return { id: row.id, message_id: row.messageId, sender_id: row.senderId, msg_type: row.msgType, content: row.content };
}

export interface WidgetContent {
  widget_type: 'poll' | 'todo';
  extra_data: Record<string, unknown>;
}

// Python's str.splitlines and str.strip, which Zulip's parser uses.
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;
/** A list marker ("- ", "* ") before an option or task is not part of it. */
const listItem = (line: string) => line.trim().replace(/^\s*[-*]?\s*/, '');

function pollData(rest: string): Record<string, unknown> {
  const lines = rest.split(LINE_BREAK);
  let question = '';
  if (lines.length && lines[0]) question = lines.shift()!.trim();
  const options = lines.map(listItem).filter((o) => o.length > 0);
  return { question, options };
}

function todoData(rest: string): Record<string, unknown> {
  const lines = rest.split(LINE_BREAK);
  let title = '';
  if (lines.length && lines[0]) title = lines.shift()!.trim();
  const tasks = lines.map(listItem).filter((t) => t.length > 0).map((line) => {
    // A task and its description are separated by the first ": ".
    const cut = line.indexOf(': ');
    return cut < 0 ? { task: line.trim(), desc: '' } : { task: line.slice(0, cut).trim(), desc: line.slice(cut + 2).trim() };
  });
  return { task_list_title: title, tasks };
}

/** Zulip's get_widget_data: the widget a message's content defines, if its first word is /poll or /todo. */
export function widgetFor(content: string): WidgetContent | null {
  const first = content.split(/\s+/)[0] ?? '';
  if (first !== '/poll' && first !== '/todo') return null;
  const rest = content.replace(first, '');
  return first === '/poll'
    ? { widget_type: 'poll', extra_data: pollData(rest) }
    : { widget_type: 'todo', extra_data: todoData(rest) };
}

// ---------------------------------------------------------------------------------------------
// Validation of participants' submessages (Zulip's validate_poll_data / validate_todo_data)

/** Zulip's MAX_IDX, shared with its client widgets. */
const MAX_IDX = 1000;

type Check = (name: string, value: unknown) => void;
const isString: Check = (name, value) => {
  if (typeof value !== 'string') throw new BadRequestError(`${name} is not a string`);
};
const isBool: Check = (name, value) => {
  if (typeof value !== 'boolean') throw new BadRequestError(`${name} is not a boolean`);
};
const intIn = (allowed: number[]): Check => (name, value) => {
  if (!Number.isInteger(value)) throw new BadRequestError(`${name} is not an integer`);
  if (!allowed.includes(value as number)) throw new BadRequestError(`Invalid ${name}`);
};
const intRange = (min: number, max: number): Check => (name, value) => {
  if (!Number.isInteger(value)) throw new BadRequestError(`${name} is not an integer`);
  if ((value as number) < min || (value as number) > max) throw new BadRequestError(`${name} is not in the range ${min} to ${max}`);
};

/** Zulip's check_dict_only: exactly these keys, each passing its check. */
function exactly(what: string, data: Record<string, unknown>, checks: Record<string, Check>): void {
  for (const [key, check] of Object.entries(checks)) {
    if (!(key in data)) throw new BadRequestError(`${what}['${key}'] is missing`);
    check(`${what}['${key}']`, data[key]);
  }
  const extra = Object.keys(data).filter((k) => !(k in checks));
  if (extra.length) throw new BadRequestError(`Unexpected arguments: ${extra.join(', ')}`);
}

function typed(what: string, data: unknown): Record<string, unknown> & { type: string } {
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new BadRequestError(`${what} is not a dict`);
  const record = data as Record<string, unknown>;
  if (!('type' in record)) throw new BadRequestError(`${what}['type'] is missing`);
  isString(`${what}['type']`, record.type);
  return record as Record<string, unknown> & { type: string };
}

function validatePoll(data: unknown, isAuthor: boolean): void {
  const poll = typed('poll data', data);
  switch (poll.type) {
    case 'vote':
      return exactly('poll data', poll, { type: isString, key: isString, vote: intIn([1, -1]) });
    case 'question':
      if (!isAuthor) throw new BadRequestError("You can't edit a question unless you are the author.");
      return exactly('poll data', poll, { type: isString, question: isString });
    case 'new_option':
      return exactly('poll data', poll, { type: isString, option: isString, idx: intRange(0, MAX_IDX) });
    default:
      throw new BadRequestError(`Unknown type for poll data: ${poll.type}`);
  }
}

function validateTodo(data: unknown, isAuthor: boolean): void {
  const todo = typed('todo data', data);
  switch (todo.type) {
    case 'new_task':
      return exactly('todo data', todo, { type: isString, key: intRange(0, MAX_IDX), task: isString, desc: isString, completed: isBool });
    case 'strike':
      return exactly('todo data', todo, { type: isString, key: isString });
    case 'new_task_list_title':
      if (!isAuthor) throw new BadRequestError("You can't edit the task list title unless you are the author.");
      return exactly('todo data', todo, { type: isString, title: isString });
    default:
      throw new BadRequestError(`Unknown type for todo data: ${todo.type}`);
  }
}

export async function addSubmessage(ctx: Context, user: User, messageId: number, msgType: string, content: string): Promise<number> {
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch {
    throw new BadRequestError('Invalid json for submessage');
  }
  return inTransaction(ctx, async (tx) => {
    const { message } = await accessMessage(tx.db, user, messageId, { modifying: true });
    // Serializes submessages of one message (Zulip's access_message(..., lock_message=True)).
    await tx.db.$queryRaw(Prisma.sql`SELECT id FROM "Message" WHERE id = ${message.id} FOR UPDATE`);
    const existing = await tx.db.subMessage.findMany({ where: { messageId: message.id }, orderBy: { id: 'asc' } });
    // The message's sender starts the conversation; others may only join it.
    if (user.id !== message.senderId && !existing.some((s) => s.senderId === message.senderId)) {
      throw new BadRequestError('You cannot attach a submessage to this message.');
    }
    const widget = existing.find((s) => s.msgType === 'widget');
    const widgetType = widget ? widgetTypeOf(widget.content) : null;
    const isAuthor = message.senderId === user.id;
    if (widgetType === 'poll') validatePoll(data, isAuthor);
    if (widgetType === 'todo') validateTodo(data, isAuthor);
    const row = await tx.db.subMessage.create({ data: { messageId: message.id, senderId: user.id, msgType, content } });
    await applyParticipation(tx, user, message);
    tx.events.publish(ctx.realm.id, await messageAudience(tx.db, message.id), {
      type: 'submessage', msg_type: msgType, message_id: message.id, submessage_id: row.id, sender_id: user.id, content,
    });
    return row.id;
  });
}

function widgetTypeOf(content: string): string | null {
  try {
    const parsed = JSON.parse(content) as { widget_type?: unknown };
    return typeof parsed?.widget_type === 'string' ? parsed.widget_type : null;
  } catch {
    return null;
  }
}
