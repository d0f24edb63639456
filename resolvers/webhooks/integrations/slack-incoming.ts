// Zulip's Slack-compatible incoming webhook (zerver/webhooks/slack_incoming/view.py, with the block
// and attachment rendering of zerver/data_import/slack_message_conversion.py): whatever was written
// for Slack's incoming webhooks posts to Parley unchanged.
import { isIPv6 } from 'node:net';
import { BadRequestError, InvalidJsonError, MissingArgumentError } from '../../errors.ts';
import type { Integration, WebhookOutcome, WebhookRequest } from '../integration.ts';
import { WildValue } from '../payload.ts';

export const slackIncoming: Integration = {
  urlName: 'slack_incoming',
  displayName: 'SlackIncoming',
  slackResponses: true,
  eventTypes: null,
  translate,
};

function translate(request: WebhookRequest): WebhookOutcome {
  const payload = readPayload(request);
  // Zulip reads `channel` only when the URL names no topic, so a malformed one is then no error.
  const topic = request.param('topic') ?? topicFromChannel(payload);

  const pieces = [
    ...(payload.opt('blocks').truthy() ? payload.get('blocks').list().map(renderBlock) : []),
    ...(payload.opt('attachments').truthy() ? payload.get('attachments').list().map(renderAttachment) : []),
  ];
  let body = joinPieces(pieces);
  // Slack shows `text` only as the notification fallback when there are blocks or attachments.
  if (body === '' && payload.opt('text').truthy()) {
    const emoji = payload.opt('icon_emoji').truthy() ? `${payload.get('icon_emoji').str()} ` : '';
    body = pyStrip(emoji + payload.get('text').str());
  }
  if (body === '') return { messages: [] };
  return { messages: [{ topic, content: convertFormatting(pyStrip(replaceLinks(body))) }] };
}

/** Slack takes the JSON as the body, or as a `payload` form field (or query parameter) otherwise. */
function readPayload(request: WebhookRequest): WildValue {
  const mimeType = (request.header('content-type') ?? '').split(';', 1)[0]?.trim().toLowerCase();
  if (mimeType === 'application/json') return request.payload();
  const field = request.param('payload');
  if (field === undefined) throw new MissingArgumentError('payload');
  try {
    return new WildValue('payload', JSON.parse(field));
  } catch {
    throw new InvalidJsonError();
  }
}

function topicFromChannel(payload: WildValue): string {
  const channel = payload.opt('channel');
  if (channel.value === undefined) return '(no topic)';
  return channel.str().replace(/^[@#]/, '');
}

// https://docs.slack.dev/reference/block-kit/blocks
const BLOCK_TYPES = ['actions', 'call', 'condition', 'contact_card', 'context', 'divider', 'file', 'header', 'image', 'input', 'rich_text', 'section', 'table'];

function renderBlock(block: WildValue): string {
  switch (oneOf(block.get('type'), BLOCK_TYPES)) {
    case 'context': {
      if (!block.opt('elements').truthy()) return '';
      // Slack packs these side by side; stacking them is simpler and loses nothing.
      return joinPieces(block.get('elements').list().map((element) =>
        oneOf(element.get('type'), ['image', 'plain_text', 'mrkdwn']) === 'image'
          ? renderElement(element)
          : textObject(element)));
    }
    case 'divider':
      return '----';
    case 'header':
      return `## ${textObject(block.get('text'), true)}`;
    case 'image': {
      const url = checkUrl(block.get('image_url'));
      let alt = block.get('alt_text').str();
      if (block.has('title')) alt = textObject(block.get('title'), true);
      return `[${alt}](${url})`;
    }
    case 'section': {
      const pieces: string[] = [];
      if (block.has('text')) pieces.push(textObject(block.get('text')));
      if (block.has('accessory')) pieces.push(renderElement(block.get('accessory')));
      if (block.has('fields')) pieces.push(renderFields(block.get('fields').list().map((f) => textObject(f))));
      return joinPieces(pieces);
    }
    default:
      // Interactive blocks (buttons, inputs), calls, files, tables and rich_text (which repeats `text`).
      return '';
  }
}

function renderFields(fields: string[]): string {
  // A lone field reads better without a table's borders and limits.
  if (fields.length === 1) return fields[0] ?? '';
  // Table cells can hold neither newlines nor (unescapable) pipes; Slack's two columns have no
  // header, hence the blank one.
  const cells = fields.map((f) => f.replaceAll('\n', ' ').replaceAll('|', ' '));
  let table = '| | |\n|-|-|\n';
  for (let i = 0; i < cells.length; i += 2) table += `| ${cells[i]} | ${cells[i + 1] ?? ''} |\n`;
  return table;
}

/** Block elements: only images mean anything outside Slack (the rest are interactive controls). */
function renderElement(element: WildValue): string {
  if (element.get('type').str() !== 'image') return '';
  const url = element.opt('image_url');
  // Zulip drops an image it cannot link to (tests.py test_broken_image) rather than refusing it all.
  if (!isUrl(url.value)) return '';
  return `[${element.get('alt_text').str()}](${url.value})`;
}

// https://docs.slack.dev/legacy/legacy-messaging/legacy-secondary-message-attachments: every field
// optional, and null as good as absent.
function renderAttachment(attachment: WildValue): string {
  const pieces: string[] = [];
  if (attachment.opt('title').truthy()) {
    const title = attachment.get('title').str();
    const link = attachment.opt('title_link');
    // A relative or broken link would go nowhere from Zulip; the title alone stays.
    pieces.push(link.truthy() && isUrl(link.value) ? `## [${title}](${link.value})` : `## ${title}`);
  }
  for (const key of ['pretext', 'text']) {
    if (attachment.opt(key).truthy()) pieces.push(attachment.get(key).str());
  }
  if (attachment.has('fields')) pieces.push(attachment.get('fields').list().map(renderAttachmentField).filter((f) => f !== null).join('\n'));
  if (attachment.opt('blocks').truthy()) pieces.push(...attachment.get('blocks').list().map(renderBlock));
  if (attachment.opt('image_url').truthy()) {
    const url = attachment.get('image_url');
    pieces.push(`[](${isUrl(url.value) ? url.value : requoteUri(url.str())})`);
  }
  if (attachment.opt('footer').truthy()) pieces.push(attachment.get('footer').str());
  if (attachment.opt('ts').truthy()) pieces.push(globalTime(attachment.get('ts')));
  return joinPieces(pieces);
}

function renderAttachmentField(field: WildValue): string | null {
  const title = field.opt('title').truthy() ? field.get('title').str() : null;
  const value = field.opt('value').truthy() ? field.get('value').str() : null;
  if (title !== null && value !== null) return `*${title}*: ${value}`;
  return title !== null ? `*${title}*` : value;
}

/** Zulip's `<time:…>` syntax, which clients show in the reader's time zone. */
function globalTime(ts: WildValue): string {
  const v = ts.value;
  let seconds: number;
  // Python's check_int takes booleans as integers.
  if (typeof v === 'boolean' || Number.isInteger(v)) {
    seconds = Number(v);
  } else {
    // Slack has been seen sending ts as a string holding a float.
    const float = parsePythonFloat(ts.str());
    if (float === null) throw new BadRequestError(`${ts.varName} is not an integer`);
    seconds = Math.trunc(float);
  }
  const date = new Date(seconds * 1000);
  const year = date.getUTCFullYear();
  if (!(year >= 1 && year <= 9999)) throw new BadRequestError(`${ts.varName} is out of range`);
  return `<time:${date.toISOString().slice(0, 19)}+00:00>`;
}

function parsePythonFloat(text: string): number | null {
  const digits = String.raw`\d(?:_?\d)*`;
  const decimal = new RegExp(String.raw`^[+-]?(?:${digits}(?:\.(?:${digits})?)?|\.${digits})(?:[eE][+-]?${digits})?$`);
  const trimmed = pyStrip(text);
  return decimal.test(trimmed) ? Number(trimmed.replaceAll('_', '')) : null;
}

/** Zulip's check_dict for a Block Kit text object: `type` (plain_text or mrkdwn) and `text`. */
function textObject(value: WildValue, plainTextOnly = false): string {
  value.entries(); // a dict, or Zulip's "is not a dict"
  const required = (key: string) => {
    if (!value.has(key)) throw new BadRequestError(`${key} key is missing from ${value.varName}`);
    return value.get(key);
  };
  oneOf(required('type'), plainTextOnly ? ['plain_text'] : ['plain_text', 'mrkdwn']);
  return required('text').str();
}

function oneOf(value: WildValue, allowed: readonly string[]): string {
  const s = value.str();
  if (!allowed.includes(s)) throw new BadRequestError(`Invalid ${value.varName}`);
  return s;
}

/** Zulip's check_url: a URL Django's URLValidator accepts, else "... is not a URL". */
export function checkUrl(value: WildValue): string {
  const s = value.str();
  if (!isUrl(s)) throw new BadRequestError(`${value.varName} is not a URL`);
  return s;
}


// Python's str.isspace(), for strip() and the `\s` of Python regular expressions.
const PY_SPACE = String.raw`\t\n\v\f\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000`;
const PY_STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'g');

function pyStrip(s: string): string {
  return s.replace(PY_STRIP, '');
}

function joinPieces(pieces: string[]): string {
  return pieces.map(pyStrip).filter((p) => p !== '').join('\n\n');
}

// ---- Slack's mrkdwn (https://docs.slack.dev/messaging/formatting-message-text) ----

// `<https://example.com|label>` and `<https://example.com>` (the scheme optional, as Zulip allows).
const SLACK_LINK = /<(?:http:\/\/www\.|https:\/\/www\.|http:\/\/|https:\/\/|ftp:\/\/)?[a-z0-9]+(?:[-.][a-z0-9]+)*\.[a-z]{2,63}(?::[0-9]{1,5})?(?:\/[^>]*)?\|?(?:\|[^>]+)?>/g;
// `<mailto:a@example.com|a@example.com>`; Python's `\w` is letters, digits and underscore.
const EMAIL = String.raw`[\p{L}\p{N}_.-]+@[\p{L}\p{N}_.-]+(?:\.[\p{L}\p{N}_]+)+`;
const SLACK_MAILTO = new RegExp(String.raw`<((?:mailto:)?${EMAIL})\|?(?:${EMAIL})?>`, 'gu');

function replaceLinks(text: string): string {
  // Zulip rewrites every occurrence of each link found in the original text, one after another.
  for (const [link] of text.matchAll(SLACK_LINK)) {
    const pipe = link.indexOf('|');
    const converted = pipe === -1 ? link.slice(1, -1) : `[${link.slice(pipe + 1, -1)}](${link.slice(1, pipe)})`;
    text = text.split(link).join(converted);
  }
  for (const [mailto, address] of text.matchAll(SLACK_MAILTO)) text = text.split(mailto).join(address);
  return text;
}

/**
 * Slack's `*bold*`, `~strike~` and `_italic_` become Zulip's `**bold**`, `~~strike~~` and `*italic*`.
 * Slack formats only whole words: the markers must sit between line edges, spaces, punctuation or
 * symbols (not inside a word, code, a mention or brackets).
 */
function slackEmphasis(marker: string, zulipMarker: string): (text: string) => string {
  const m = marker === '*' ? String.raw`\*` : marker;
  const re = new RegExp(
    String.raw`((?![${marker}\x60@\\\p{Pf}\p{Pe}])[\p{P}\p{Zs}\p{S}]|(?<=^|\n))${m}([^${marker}]+)${m}(?![${marker}\x60@\\\p{Pi}\p{Ps}])(?=[\p{P}\p{Zs}\p{S}]|\n|$)`,
    'gu',
  );
  return (text) => text.replace(re, (_, before: string, inner: string) => before + zulipMarker + inner + zulipMarker);
}

const bold = slackEmphasis('*', '**');
const strike = slackEmphasis('~', '~~');
const italic = slackEmphasis('_', '*');

function convertFormatting(text: string): string {
  // Bold first: the italics it leaves behind use Zulip's `*` and must not be read as Slack bold.
  return italic(strike(bold(text)));
}

// ---- URLs, as Zulip's check_url (Django's URLValidator) and requests' requote_uri judge them ----

const UL = String.raw`\u00a1-\uffff`;
const IPV4 = String.raw`(?:0|25[0-5]|2[0-4][0-9]|1[0-9]?[0-9]?|[1-9][0-9]?)(?:\.(?:0|25[0-5]|2[0-4][0-9]|1[0-9]?[0-9]?|[1-9][0-9]?)){3}`;
const HOSTNAME = String.raw`[a-z${UL}0-9](?:[a-z${UL}0-9-]{0,61}[a-z${UL}0-9])?`;
const DOMAIN = String.raw`(?:\.(?!-)[a-z${UL}0-9-]{1,63}(?<!-))*`;
const TLD = String.raw`\.(?!-)(?:[a-z${UL}-]{2,63}|xn--[a-z0-9]{1,59})(?<!-)\.?`;
const DJANGO_URL = new RegExp(
  String.raw`^[a-z0-9.+-]*://(?:[^${PY_SPACE}:@/]+(?::[^${PY_SPACE}:@/]*)?@)?(?:${IPV4}|\[[0-9a-f:.]+\]|${HOSTNAME}${DOMAIN}${TLD}|localhost)(?::[0-9]{1,5})?(?:[/?#][^${PY_SPACE}]*)?$`,
  'iu',
);

function isUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 2048 || /[\t\r\n]/.test(value)) return false;
  if (!['http', 'https', 'ftp', 'ftps'].includes(value.split('://', 1)[0]?.toLowerCase() ?? '')) return false;
  if (!DJANGO_URL.test(value)) return false;
  const netloc = /^[^:/?#]*:\/\/([^/?#]*)/.exec(value)?.[1] ?? '';
  // Python's urlsplit refuses unbalanced brackets, and a bracketed host that is no IPv6 address.
  if (netloc.includes('[') !== netloc.includes(']')) return false;
  const bracketed = /\[([^\]]*)/.exec(netloc)?.[1];
  if (bracketed !== undefined && !(bracketed.startsWith('v') ? /^v[a-fA-F0-9]+\..+$/.test(bracketed) : isIPv6(bracketed))) return false;
  // ... and a host whose compatibility normalization smuggles in a delimiter.
  const bare = netloc.replace(/[@:#?]/g, '');
  if (bare.normalize('NFKC') !== bare && /[/?#@:]/.test(bare.normalize('NFKC'))) return false;
  const ipv6 = /^\[(.+)\](?::[0-9]{1,5})?$/.exec(netloc);
  if (ipv6 && !(ipv6[1]!.length <= 39 && isIPv6(ipv6[1]!))) return false;
  const hostPort = netloc.slice(netloc.lastIndexOf('@') + 1);
  const hostname = hostPort.startsWith('[') ? hostPort.slice(1, hostPort.indexOf(']')) : hostPort.split(':', 1)[0] ?? '';
  return hostname !== '' && hostname.length <= 253;
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** requests' requote_uri: percent-encode what is not already encoded or reserved. */
function requoteUri(uri: string): string {
  try {
    return quote(unquoteUnreserved(uri), "!#$%&'()*+,/:;=?@[]~");
  } catch {
    // A `%` starting no valid escape: encode it too.
    return quote(uri, "!#$&'()*+,/:;=?@[]~");
  }
}

function unquoteUnreserved(uri: string): string {
  const [first, ...rest] = uri.split('%');
  return first + rest.map((part) => {
    const hex = part.slice(0, 2);
    if (!/^[\p{L}\p{N}]{2}$/u.test(hex)) return `%${part}`;
    if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw new Error('invalid percent-escape');
    const c = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(c) ? c + part.slice(2) : `%${part}`;
  }).join('');
}

/** Python's urllib.parse.quote. */
function quote(s: string, safe: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(s)) {
    const c = String.fromCharCode(byte);
    out += byte < 0x80 && (UNRESERVED.test(c) || safe.includes(c)) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
