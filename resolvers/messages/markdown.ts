// Zulip-flavoured Markdown → the HTML Zulip stores as `rendered_content`.
//
// Zulip clients style and parse this HTML (mentions, channel links, emoji spans, code blocks,
// spoilers, inline image previews), so the output follows Zulip's server renderer
// (zerver/lib/markdown/__init__.py, fenced_code.py) as closely as markdown-it allows. The Zulip
// syntax is implemented as markdown-it rules, never as rewrites of the produced HTML, so nothing
// fires inside code spans or code blocks.
//
// Rendering is pure: the caller looks up what a message might reference (see
// extractMentionCandidates) in one batch and passes the results in as MentionTargets.

import MarkdownIt from 'markdown-it';
import type { MarkdownIt as Engine, StateBlock, StateCore, StateInline, Token } from 'markdown-it';
import { codeFromEmojiText, unicodeEmojiByName, unicodeEmojiNameForCode } from '../emoji/unicode.ts';
import { compileLinkifier, findLinkifierMatches, wellFormed } from '../linkifiers/engine.ts';

export interface MentionUser {
  id: number;
  fullName: string;
  /** Zulip renders mentions of deactivated users, but silently (no notification). */
  isActive?: boolean;
}

export interface MentionGroup {
  id: number;
  name: string;
  /** As for users: a deactivated group can still be named, but only silently. */
  deactivated?: boolean;
}

export interface MentionTargets {
  usersByName: Map<string, MentionUser[]>; // key: full name lowercased
  usersById: Map<number, MentionUser>;
  groupsByName: Map<string, MentionGroup>; // key: group name lowercased
  channelsByName: Map<string, { id: number; name: string }>; // key: channel name lowercased
  customEmoji: Map<string, { id: number; name: string; url: string }>; // active realm emoji by name
  linkifiers: { pattern: string; urlTemplate: string }[];
  /** The organization's image uploads the content links, by path ID: only these get previews. */
  uploadPreviews?: Map<string, UploadPreview>;
}

/** What the preview of an uploaded image shows (Zulip's user_upload_previews). */
export interface UploadPreview {
  width: number;
  height: number;
  contentType: string;
  animated: boolean;
  /** The thumbnail format to show ("840x560.webp"); null while the thumbnail is being made. */
  thumbnail: string | null;
}

/** The class of an image preview whose thumbnail is still being made. */
export const THUMBNAIL_PLACEHOLDER_CLASS = 'image-loading-placeholder';

/** Where clients find a spinner while a thumbnail is being made (Zulip's loader). */
export const THUMBNAIL_PLACEHOLDER_SRC = '/static/images/loading/loader-black.svg';

/** A path ID as a URL path: each segment percent-encoded. */
export function uploadPathUrl(pathId: string): string {
  return pathId.split('/').map(encodeURIComponent).join('/');
}

/**
 * The <img> of an uploaded image's preview, as Zulip's message-formatting documentation shows it:
 * the original's dimensions and type, and the thumbnail, or a placeholder until it exists.
 */
function uploadPreviewImage(pathId: string, preview: UploadPreview): string {
  const attrs: Record<string, string> = {};
  if (preview.thumbnail === null) attrs['class'] = THUMBNAIL_PLACEHOLDER_CLASS;
  else if (preview.animated) attrs['data-animated'] = 'true';
  attrs['data-original-content-type'] = preview.contentType;
  attrs['data-original-dimensions'] = `${preview.width}x${preview.height}`;
  attrs['src'] = preview.thumbnail === null ? THUMBNAIL_PLACEHOLDER_SRC : `/user_uploads/thumbnail/${uploadPathUrl(pathId)}/${preview.thumbnail}`;
  return element('img', attrs, null);
}

export interface RenderResult {
  html: string;
  /** Users mentioned by @**Name** or @**Name|id**; silent and quoted mentions are not counted. */
  mentionedUserIds: number[];
  mentionedGroupIds: number[];
  /** The wildcard mention that sets recipients' flags: a channel wildcard wins over @**topic**. */
  wildcardMention: 'stream' | 'topic' | null;
  /** Whether @**topic** is mentioned (loudly), with a channel wildcard or not (Zulip's mentions_topic_wildcard). */
  mentionsTopicWildcard: boolean;
  /** True when the HTML has any <a>, which (as in Zulip) includes channel and topic links. */
  hasLink: boolean;
  /** True when an inline image preview was added. */
  hasImage: boolean;
  /** True when some link points at /user_uploads/ on this realm. */
  hasAttachment: boolean;
  /** The /user_uploads/ path ids linked, for claiming attachments (Zulip's potential_attachment_path_ids). */
  potentialAttachmentPathIds: string[];
  isMeMessage: boolean;
}

export interface MentionCandidates {
  names: string[];
  ids: number[];
  groupNames: string[];
  channelNames: string[];
  emojiNames: string[];
}

export interface RenderOptions {
  /** e.g. `https://chat.example.com`; links into the realm become relative, as Zulip stores them. */
  realmUrl?: string;
}

// ---------------------------------------------------------------------------------------------
// Syntax shared by the extractor and the renderer (zerver/lib/mention.py, markdown/__init__.py)

const USER_MENTION_RE = /@(_?)\*\*([^*]+)\*\*/y;
const GROUP_MENTION_RE = /@(_?)\*([^*]+)\*/y;
const CHANNEL_LINK_RE = /#\*\*([^*]+)\*\*/y;
const EMOJI_RE = /:([\p{L}\p{N}_+-]+):/uy;
const TIMESTAMP_RE = /<time:([^>]*?)>/y;
const STRIKE_RE = /~~([^~\n]+?)~~(?!~)/y;
const STRONG_EM_RE = /\*\*\*(?!\s)[^*^\n]+(?<!\s)\*\*\*/y;

const STREAM_WILDCARDS = new Set(['all', 'everyone', 'stream', 'channel']);
const TOPIC_WILDCARDS = new Set(['topic']);

// Zulip's BEFORE_MENTION_ALLOWED_REGEX: a mention must not be glued to a preceding word.
const BEFORE_MENTION = /[\s'"({[/<]/;
// Link-producing syntax also refuses `[`, so `[#**channel**](url)` cannot nest one <a> in another.
const BEFORE_LINK_PRODUCING = /[\s'"({/<]/;

const ID_SYNTAX_RE = /^(.+)?\|(\d+)$/s;
const TOPIC_MESSAGE_LINK_RE = /^([^*>]+)>([^*]+)@(\d+)$/;
const TOPIC_LINK_RE = /^([^*>]+)>([^*]+)$/;

const ZULIP_EMOJI_URL = '/static/generated/emoji/images/emoji/unicode/zulip.png';

function globalCopy(re: RegExp): RegExp {
  return new RegExp(re.source, re.flags.replace('y', '') + 'g');
}

export function extractMentionCandidates(content: string): MentionCandidates {
  const names = new Set<string>();
  const ids = new Set<number>();
  const groupNames = new Set<string>();
  const channelNames = new Set<string>();
  const emojiNames = new Set<string>();

  // Deliberately over-approximate (code blocks are not skipped): this only decides what to fetch.
  for (const m of content.matchAll(globalCopy(USER_MENTION_RE))) {
    const text = m[2]!;
    if (STREAM_WILDCARDS.has(text) || TOPIC_WILDCARDS.has(text)) continue;
    const idSyntax = ID_SYNTAX_RE.exec(text);
    if (idSyntax) ids.add(Number(idSyntax[2]));
    else names.add(text);
  }
  for (const m of content.matchAll(globalCopy(GROUP_MENTION_RE))) groupNames.add(m[2]!);
  for (const m of content.matchAll(globalCopy(CHANNEL_LINK_RE))) {
    const text = m[1]!;
    channelNames.add(text);
    const arrow = text.indexOf('>');
    if (arrow > 0) channelNames.add(text.slice(0, arrow));
  }
  for (const m of content.matchAll(globalCopy(EMOJI_RE))) emojiNames.add(m[1]!);

  return {
    names: [...names],
    ids: [...ids],
    groupNames: [...groupNames],
    channelNames: [...channelNames],
    emojiNames: [...emojiNames],
  };
}

// ---------------------------------------------------------------------------------------------
// Escaping

// Element text: Zulip (ElementTree) leaves quotes alone in text, and clients compare HTML.
function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttr(s: string): string {
  return escapeText(s).replace(/"/g, '&quot;');
}

// Pygments escapes both quote kinds inside highlighted code.
function escapeCode(s: string): string {
  return escapeAttr(s).replace(/'/g, '&#39;');
}

// Zulip's serializer writes attributes in lexical order; clients and tests see that order.
function element(tag: string, attrs: Record<string, string>, inner: string | null): string {
  const rendered = Object.keys(attrs)
    .sort()
    .map((k) => ` ${k}="${escapeAttr(attrs[k]!)}"`)
    .join('');
  return inner === null ? `<${tag}${rendered}>` : `<${tag}${rendered}>${inner}</${tag}>`;
}

// ---------------------------------------------------------------------------------------------
// URLs

const ALLOWED_SCHEMES = new Set([
  'http', 'https', 'ftp', 'file',
  // https://html.spec.whatwg.org/multipage/system-state.html#safelisted-scheme
  'bitcoin', 'geo', 'im', 'irc', 'ircs', 'magnet', 'mailto', 'matrix', 'mms', 'news', 'nntp',
  'openpgp4fpr', 'sip', 'sms', 'smsto', 'ssh', 'tel', 'urn', 'webcal', 'wtai', 'xmpp',
]);

/** Zulip's sanitize_url: a fixed scheme allow-list, scheme-less links become http://. */
export function sanitizeUrl(raw: string): string | null {
  const url = raw.replace(/ /g, '%20');
  if (url === '') return null;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url);
  if (!scheme) {
    if (url.startsWith('//')) return sanitizeUrl('http:' + url);
    const path = url.split(/[?#]/, 1)[0]!;
    if (path.includes('@')) return 'mailto:' + url;
    if (path.startsWith('/')) return url;
    if (path === '' && url.startsWith('#') && url.length > 1) return url;
    return sanitizeUrl('http://' + url);
  }
  return ALLOWED_SCHEMES.has(scheme[1]!.toLowerCase()) ? url : null;
}

function normalizeRealmUrl(realmUrl: string | undefined): string | null {
  return realmUrl ? realmUrl.replace(/\/+$/, '') : null;
}

/** Zulip's rewrite_local_links_to_relative: narrow links and uploads on this realm become relative. */
function rewriteLocalLink(href: string, realmUrl: string | null): string {
  if (realmUrl) {
    const prefix = realmUrl + '/';
    if (href.startsWith(prefix + '#') || href.startsWith(prefix + 'user_uploads/')) return href.slice(prefix.length);
  }
  return href;
}

function attachmentPathId(href: string, realmUrl: string | null): string | null {
  let url = href;
  if (realmUrl && url.startsWith(realmUrl + '/')) url = url.slice(realmUrl.length);
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(url) || url.startsWith('//')) return null;
  if (!url.startsWith('/')) url = '/' + url;
  const path = url.split(/[?#]/, 1)[0]!;
  if (!path.startsWith('/user_uploads/')) return null;
  const encoded = path.slice('/user_uploads/'.length);
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

const IMAGE_EXTENSIONS = ['.bmp', '.gif', '.jpe', '.jpeg', '.jpg', '.png', '.webp'];

function urlParts(href: string): { host: string; path: string } {
  try {
    const u = new URL(href, 'http://relative.invalid');
    return { host: u.host === 'relative.invalid' ? '' : u.host, path: u.pathname };
  } catch {
    return { host: '', path: href.split(/[?#]/, 1)[0]! };
  }
}

function isImageUrl(href: string): boolean {
  const { host, path } = urlParts(href);
  // pasteboard.co serves HTML pages at URLs ending in image extensions.
  if (host === 'pasteboard.co') return false;
  const lower = path.toLowerCase();
  return IMAGE_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

/** Zulip's get_actual_image_url: GitHub "blob" pages → the raw file. */
function actualImageUrl(href: string): string {
  const m = /^https?:\/\/(?:[\w-]+\.)?github\.com(\/[^/]+\/[^/]+)\/blob(\/[^?#]*)/.exec(href);
  return m ? `https://raw.githubusercontent.com${m[1]}${m[2]}` : href;
}

// Bare-domain autolinks Zulip refuses because they are usually file names.
const FALSE_POSITIVE_TLDS = new Set(['java', 'md', 'mov', 'py', 'zip']);
// linkify-it knows only the classic generic TLDs; Zulip knows the IANA list. These cover most of
// what people paste.
const EXTRA_TLDS = [
  'ai', 'app', 'blog', 'chat', 'cloud', 'codes', 'company', 'design', 'dev', 'email', 'group', 'io',
  'link', 'live', 'network', 'news', 'online', 'page', 'run', 'site', 'social', 'software', 'space',
  'store', 'studio', 'systems', 'team', 'tech', 'today', 'tools', 'wiki', 'works', 'world', 'xyz', 'zone',
];

// ---------------------------------------------------------------------------------------------
// Code blocks

// Pygments lexer names for the aliases people actually type; Zulip stores the lexer name so the
// web client can pick a "playground". Unknown languages are kept as typed, as Zulip does.
const LEXER_NAMES: Record<string, string> = {};
for (const [name, aliases] of Object.entries({
  Python: ['python', 'py', 'sage', 'python3', 'py3', 'bazel', 'starlark', 'pyi'],
  'Python 2.x': ['python2', 'py2'],
  'Python console session': ['pycon', 'python-console'],
  JavaScript: ['javascript', 'js', 'mjs', 'cjs'],
  TypeScript: ['typescript', 'ts'],
  JSX: ['jsx', 'react'],
  TSX: ['tsx'],
  Java: ['java'],
  C: ['c'],
  'C++': ['cpp', 'c++'],
  'C#': ['csharp', 'c#', 'cs'],
  Go: ['go', 'golang'],
  Rust: ['rust', 'rs'],
  Ruby: ['ruby', 'rb', 'duby'],
  PHP: ['php', 'php3', 'php4', 'php5'],
  Bash: ['bash', 'sh', 'ksh', 'zsh', 'shell', 'openrc'],
  'Bash Session': ['console', 'shell-session'],
  PowerShell: ['powershell', 'pwsh', 'posh', 'ps1', 'psm1'],
  JSON: ['json', 'json-object'],
  YAML: ['yaml'],
  HTML: ['html'],
  XML: ['xml'],
  CSS: ['css'],
  SCSS: ['scss'],
  SQL: ['sql'],
  'PostgreSQL SQL dialect': ['postgresql', 'postgres'],
  MySQL: ['mysql'],
  Markdown: ['markdown', 'md'],
  Kotlin: ['kotlin'],
  Swift: ['swift'],
  'Objective-C': ['objective-c', 'objectivec', 'obj-c', 'objc'],
  Diff: ['diff', 'udiff'],
  'Text only': ['text'],
  TeX: ['tex', 'latex'],
  Haskell: ['haskell', 'hs'],
  Scala: ['scala'],
  Perl: ['perl', 'pl'],
  Lua: ['lua'],
  S: ['splus', 's', 'r'],
  Docker: ['docker', 'dockerfile'],
  INI: ['ini', 'cfg', 'dosini'],
  TOML: ['toml'],
  GraphQL: ['graphql'],
  Elixir: ['elixir', 'ex', 'exs'],
  Erlang: ['erlang'],
  Clojure: ['clojure', 'clj'],
  Dart: ['dart'],
  Zig: ['zig'],
  'Nginx configuration file': ['nginx'],
  Makefile: ['make', 'makefile', 'mf', 'bsdmake'],
  VimL: ['vim'],
  OCaml: ['ocaml'],
  'F#': ['fsharp', 'f#'],
  Julia: ['julia', 'jl'],
  Matlab: ['matlab'],
  Groovy: ['groovy'],
  'Protocol Buffer': ['protobuf', 'proto'],
  Terraform: ['terraform', 'tf', 'hcl'],
  Elm: ['elm'],
  CoffeeScript: ['coffeescript', 'coffee-script', 'coffee'],
  'Common Lisp': ['common-lisp', 'cl', 'lisp'],
  Scheme: ['scheme', 'scm'],
  Nix: ['nixos', 'nix'],
})) {
  for (const alias of aliases) LEXER_NAMES[alias] = name;
}

function renderCodeBlock(code: string, lang: string | null): string {
  const attrs: Record<string, string> = { class: 'codehilite' };
  if (lang) attrs['data-code-language'] = LEXER_NAMES[lang] ?? lang;
  // Pygments ends every highlighted block with a newline inside <code>.
  return `${element('div', attrs, null)}<pre><span></span><code>${escapeCode(code)}\n</code></pre></div>\n`;
}

// Zulip's FENCE_RE (fenced_code.py): fences start the line; the language allows `.py`/`{py}`
// spellings; anything after the language is a header (used by spoilers).
const FENCE_RE = /^(~{3,}|`{3,})[ ]*(?:\{?\.?([a-zA-Z0-9_+,\-./#]+)[ ]*([^ ~`][^~`]*)?\}?)?$/;

type FenceKind = 'code' | 'quote' | 'spoiler' | 'math';

function fenceKind(lang: string | undefined): FenceKind {
  if (lang === 'quote' || lang === 'quoted') return 'quote';
  if (lang === 'spoiler') return 'spoiler';
  if (lang === 'math') return 'math';
  return 'code';
}

function lineText(state: StateBlock, line: number): string {
  return state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]);
}

/**
 * Finds where a fence closes, with Zulip's nesting rules: a code fence closes on the first line
 * equal to its fence; quote and spoiler fences may contain other fences, and close only when
 * those are closed. An unclosed fence runs to the end of its container.
 */
function scanFence(state: StateBlock, startLine: number, endLine: number, fence: string, kind: FenceKind) {
  const stack: { fence: string; container: boolean }[] = [{ fence, container: kind === 'quote' || kind === 'spoiler' }];
  for (let line = startLine + 1; line < endLine; line++) {
    if (!state.isEmpty(line) && state.sCount[line]! < state.blkIndent) return { contentEnd: line, next: line };
    if (state.sCount[line] !== state.blkIndent) continue;
    const text = lineText(state, line).trimEnd();
    const top = stack[stack.length - 1]!;
    if (text === top.fence) {
      stack.pop();
      if (stack.length === 0) return { contentEnd: line, next: line + 1 };
      continue;
    }
    if (top.container) {
      const m = FENCE_RE.exec(text);
      if (m) {
        const inner = fenceKind(m[2]?.toLowerCase());
        stack.push({ fence: m[1]!, container: inner === 'quote' || inner === 'spoiler' });
      }
    }
  }
  return { contentEnd: endLine, next: endLine };
}

function pushBlockHtml(state: StateBlock, html: string, map: [number, number]): void {
  const token = state.push('zulip_block_html', '', 0);
  token.content = html;
  token.block = true;
  token.map = map;
}

function tokenizeNested(state: StateBlock, from: number, to: number, parentType: string): void {
  const oldParent = state.parentType;
  const oldLineMax = state.lineMax;
  state.parentType = parentType;
  state.lineMax = to;
  state.md.block.tokenize(state, from, to);
  state.parentType = oldParent;
  state.lineMax = oldLineMax;
}

function fenceRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  // Zulip only recognises fences at the start of a line (inside containers: at their indent).
  if (state.sCount[startLine] !== state.blkIndent) return false;
  const m = FENCE_RE.exec(lineText(state, startLine));
  if (!m) return false;
  if (silent) return true;

  const fence = m[1]!;
  const lang = m[2]?.toLowerCase();
  const header = m[3]?.trim() ?? '';
  const kind = fenceKind(lang);
  const { contentEnd, next } = scanFence(state, startLine, endLine, fence, kind);
  const map: [number, number] = [startLine, next];
  state.line = next;

  // Zulip emits nothing at all for a fence without a single line inside.
  if (contentEnd <= startLine + 1) return true;

  if (kind === 'code' || kind === 'math') {
    const code = state
      .getLines(startLine + 1, contentEnd, state.blkIndent, false)
      .split('\n')
      .map((l) => l.trimEnd())
      .join('\n')
      .replace(/^\n+|\n+$/g, '');
    const token = state.push('zulip_code', 'code', 0);
    token.content = code;
    // TODO: Zulip renders ```math with KaTeX; until then it is shown as a code block.
    token.info = lang ?? '';
    token.markup = fence;
    token.block = true;
    token.map = map;
    return true;
  }

  if (kind === 'quote') {
    const open = state.push('blockquote_open', 'blockquote', 1);
    open.markup = fence;
    open.map = map;
    tokenizeNested(state, startLine + 1, contentEnd, 'blockquote');
    state.push('blockquote_close', 'blockquote', -1).markup = fence;
    state.line = next;
    return true;
  }

  // Spoiler: the exact wrapper markup of Zulip's format_spoiler.
  pushBlockHtml(state, '<div class="spoiler-block"><div class="spoiler-header">\n', map);
  if (header !== '') {
    state.push('paragraph_open', 'p', 1).map = [startLine, startLine + 1];
    const inline = state.push('inline', '', 0);
    inline.content = header;
    inline.map = [startLine, startLine + 1];
    inline.children = [];
    state.push('paragraph_close', 'p', -1);
  }
  pushBlockHtml(state, '</div><div class="spoiler-content" aria-hidden="true">\n', map);
  tokenizeNested(state, startLine + 1, contentEnd, 'spoiler');
  pushBlockHtml(state, '</div></div>\n', map);
  state.line = next;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Per-render state, carried in markdown-it's env

interface RenderEnv {
  targets: MentionTargets;
  realmUrl: string | null;
  inBlockquote: boolean;
  mentionedUserIds: Set<number>;
  mentionedGroupIds: Set<number>;
  streamWildcard: boolean;
  topicWildcard: boolean;
  hasLink: boolean;
  hasImage: boolean;
  attachmentPathIds: string[];
}

function renderEnv(state: { env: unknown }): RenderEnv {
  return state.env as RenderEnv;
}

function pushInlineHtml(state: StateInline, html: string, href?: string): void {
  const token = state.push('zulip_inline_html', '', 0);
  token.content = html;
  if (href !== undefined) token.meta = { href };
}

function precededBy(state: StateInline, allowed: RegExp): boolean {
  return state.pos === 0 || allowed.test(state.src[state.pos - 1]!);
}

function stickyMatch(re: RegExp, state: StateInline): RegExpExecArray | null {
  re.lastIndex = state.pos;
  const m = re.exec(state.src);
  return m && m.index + m[0].length <= state.posMax ? m : null;
}

// ---------------------------------------------------------------------------------------------
// Inline rules

function resolveUserMention(name: string, targets: MentionTargets): MentionUser | null {
  const idSyntax = ID_SYNTAX_RE.exec(name);
  if (idSyntax) {
    const user = targets.usersById.get(Number(idSyntax[2]));
    if (!user) return null;
    // Zulip: @**user_1_name|id_of_user_2** is invalid, so a stale name breaks the mention.
    if (idSyntax[1] !== undefined && user.fullName !== idSyntax[1]) return null;
    return user;
  }
  const users = targets.usersByName.get(name.toLowerCase());
  // Two users share the name: only the |id form can say which one is meant.
  return users && users.length === 1 ? users[0]! : null;
}

function mentionRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x40 /* @ */ || !precededBy(state, BEFORE_MENTION)) return false;
  const env = renderEnv(state);

  const userMatch = stickyMatch(USER_MENTION_RE, state);
  if (userMatch) {
    const name = userMatch[2]!;
    // Zulip silences every mention inside a quote, so quoting a message does not re-notify.
    let isSilent = userMatch[1] === '_' || env.inBlockquote;
    let html: string | null = null;
    if (STREAM_WILDCARDS.has(name)) {
      if (!silent && !isSilent) env.streamWildcard = true;
      const cls = 'user-mention channel-wildcard-mention' + (isSilent ? ' silent' : '');
      html = element('span', { class: cls, 'data-user-id': '*' }, escapeText(isSilent ? name : '@' + name));
    } else if (TOPIC_WILDCARDS.has(name)) {
      if (!silent && !isSilent) env.topicWildcard = true;
      html = element('span', { class: 'topic-mention' + (isSilent ? ' silent' : '') }, escapeText(isSilent ? name : '@' + name));
    } else {
      const user = resolveUserMention(name, env.targets);
      if (user) {
        if (user.isActive === false) isSilent = true;
        if (!silent && !isSilent) env.mentionedUserIds.add(user.id);
        const cls = 'user-mention' + (isSilent ? ' silent' : '');
        const text = isSilent ? user.fullName : '@' + user.fullName;
        html = element('span', { class: cls, 'data-user-id': String(user.id) }, escapeText(text));
      }
    }
    if (html !== null) {
      if (!silent) pushInlineHtml(state, html);
      state.pos += userMatch[0].length;
      return true;
    }
    // An unknown name falls through, and then renders as @<strong>Name</strong> like in Zulip.
    return false;
  }

  const groupMatch = stickyMatch(GROUP_MENTION_RE, state);
  if (groupMatch) {
    const group = env.targets.groupsByName.get(groupMatch[2]!.toLowerCase());
    if (!group) return false;
    const isSilent = groupMatch[1] === '_' || env.inBlockquote || group.deactivated === true;
    if (!silent) {
      if (!isSilent) env.mentionedGroupIds.add(group.id);
      const cls = 'user-group-mention' + (isSilent ? ' silent' : '');
      const text = isSilent ? group.name : '@' + group.name;
      pushInlineHtml(state, element('span', { class: cls, 'data-user-group-id': String(group.id) }, escapeText(text)));
    }
    state.pos += groupMatch[0].length;
    return true;
  }
  return false;
}

/** Zulip's encode_hash_component: percent-encoding with `.` in place of `%`. */
export function encodeHashComponent(s: string): string {
  const encoded = encodeURIComponent(wellFormed(s)).replace(
    /[!'()]/g,
    (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase(),
  );
  return encoded.replace(/[%.]/g, (c) => (c === '%' ? '.' : '.2E'));
}

/** Zulip's encode_channel: `9-Verona`, the channel slug of narrow URLs. */
export function encodeChannel(id: number, name: string): string {
  return `${id}-${encodeHashComponent(name.replace(/ /g, '-'))}`;
}

function channelLinkRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x23 /* # */ || !precededBy(state, BEFORE_LINK_PRODUCING)) return false;
  // A link inside link text would nest <a> elements.
  if (state.linkLevel > 0) return false;
  const m = stickyMatch(CHANNEL_LINK_RE, state);
  if (!m) return false;
  const env = renderEnv(state);
  const channels = env.targets.channelsByName;
  const content = m[1]!;

  let html: string | null = null;
  let href = '';
  const message = TOPIC_MESSAGE_LINK_RE.exec(content);
  const topic = TOPIC_LINK_RE.exec(content);
  const messageChannel = message ? channels.get(message[1]!.toLowerCase()) : undefined;
  const topicChannel = topic ? channels.get(topic[1]!.toLowerCase()) : undefined;
  const channel = channels.get(content.toLowerCase());
  if (message && messageChannel) {
    const topicName = message[2]!;
    href = `/#narrow/channel/${encodeChannel(messageChannel.id, messageChannel.name)}/topic/${encodeHashComponent(topicName)}/near/${message[3]}`;
    html = element('a', { class: 'message-link', href }, escapeText(`#${messageChannel.name} > ${topicName} @ 💬`));
  } else if (topic && topicChannel) {
    const topicName = topic[2]!;
    href = `/#narrow/channel/${encodeChannel(topicChannel.id, topicChannel.name)}/topic/${encodeHashComponent(topicName)}`;
    html = element(
      'a',
      { class: 'stream-topic', 'data-stream-id': String(topicChannel.id), href },
      escapeText(`#${topicChannel.name} > ${topicName}`),
    );
  } else if (channel) {
    href = `/#narrow/channel/${encodeChannel(channel.id, channel.name)}`;
    html = element('a', { class: 'stream', 'data-stream-id': String(channel.id), href }, escapeText(`#${channel.name}`));
  }
  if (html === null) return false;
  if (!silent) pushInlineHtml(state, html, href);
  state.pos += m[0].length;
  return true;
}

function emojiSpan(code: string, name: string): string {
  const title = name.replace(/_/g, ' ');
  return element('span', { 'aria-label': title, class: `emoji emoji-${code}`, role: 'img', title }, escapeText(`:${name}:`));
}

function imageEmoji(url: string, name: string): string {
  return element('img', { alt: `:${name}:`, class: 'emoji', src: url, title: name.replace(/_/g, ' ') }, null);
}

function emojiRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x3a /* : */) return false;
  const m = stickyMatch(EMOJI_RE, state);
  if (!m) return false;
  const name = m[1]!;
  const env = renderEnv(state);
  let html: string | null = null;
  const custom = env.targets.customEmoji.get(name);
  if (custom) html = imageEmoji(custom.url, name);
  else if (name === 'zulip') html = imageEmoji(ZULIP_EMOJI_URL, name);
  else {
    const unicode = unicodeEmojiByName(name);
    if (unicode) html = emojiSpan(unicode.code, name);
  }
  if (!silent) {
    // An unknown `:name:` is consumed as text, as in Zulip: its closing colon cannot start another.
    if (html === null) state.pending += m[0];
    else pushInlineHtml(state, html);
  }
  state.pos += m[0].length;
  return true;
}

const ISO_TIME_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** The subset of dateutil's formats that matters: unix time and ISO 8601; no zone means UTC. */
function parseTimestamp(input: string): Date | null {
  const s = input.trim();
  if (/^-?\d+(?:\.\d+)?$/.test(s)) {
    const d = new Date(Number(s) * 1000);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  const iso = ISO_TIME_RE.exec(s);
  if (iso) {
    const [, y, mo, d, h = '0', mi = '0', sec = '0', frac = '0', zone] = iso;
    let ms = Date.UTC(+y!, +mo! - 1, +d!, +h, +mi, +sec, Math.floor(Number('0.' + frac) * 1000));
    if (zone && zone.toUpperCase() !== 'Z') {
      const sign = zone[0] === '-' ? -1 : 1;
      const digits = zone.slice(1).replace(':', '');
      ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0')) * 60_000;
    }
    const date = new Date(ms);
    return Number.isNaN(date.getTime()) ? null : date;
  }
  const parsed = Date.parse(s);
  if (Number.isNaN(parsed)) return null;
  const local = new Date(parsed);
  if (/\b(?:UTC|GMT|Z)\b|[+-]\d{2}:?\d{2}\b/i.test(s)) return local;
  // Date.parse reads zone-less text as server-local time; Zulip reads it as UTC.
  return new Date(
    Date.UTC(local.getFullYear(), local.getMonth(), local.getDate(), local.getHours(), local.getMinutes(), local.getSeconds()),
  );
}

function timestampRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x3c /* < */) return false;
  const m = stickyMatch(TIMESTAMP_RE, state);
  if (!m) return false;
  if (!silent) {
    const text = m[1]!;
    const date = parseTimestamp(text);
    pushInlineHtml(
      state,
      date
        ? element('time', { datetime: date.toISOString().replace('.000Z', 'Z') }, escapeText(text))
        : element('span', { class: 'timestamp-error' }, escapeText(`Invalid time format: ${text}`)),
    );
  }
  state.pos += m[0].length;
  return true;
}

/** Zulip has no `_` emphasis: `snake_case` and `__init__` stay as typed. */
function underscoreRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x5f /* _ */) return false;
  if (!silent) state.pending += '_';
  state.pos++;
  return true;
}

/** Zulip's DEL_RE: `~~x~~` on one line, spaces inside allowed (unlike GFM). */
function strikethroughRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x7e /* ~ */) return false;
  if (state.pos > 0 && state.src.charCodeAt(state.pos - 1) === 0x7e) return false;
  const m = stickyMatch(STRIKE_RE, state);
  if (!m) return false;
  return wrapInline(state, silent, m[0].length, [['del', '~~']]);
}

/** Zulip's STRONG_EM_RE: `***x***` is <strong><em>, where CommonMark nests the other way. */
function strongEmRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x2a /* * */) return false;
  const m = stickyMatch(STRONG_EM_RE, state);
  if (!m) return false;
  return wrapInline(state, silent, m[0].length, [['strong', '**'], ['em', '*']]);
}

/**
 * Consumes a match of `length` characters whose markup is `tags` (outermost first) on both sides:
 * the text between becomes inline content inside those tags.
 */
function wrapInline(state: StateInline, silent: boolean, length: number, tags: [tag: string, markup: string][]): boolean {
  const start = state.pos;
  const end = start + length;
  if (!silent) {
    const inset = tags.reduce((n, [, markup]) => n + markup.length, 0);
    const oldMax = state.posMax;
    for (const [tag, markup] of tags) state.push(`${tag}_open`, tag, 1).markup = markup;
    state.pos = start + inset;
    state.posMax = end - inset;
    state.md.inline.tokenize(state);
    state.posMax = oldMax;
    for (const [tag, markup] of [...tags].reverse()) state.push(`${tag}_close`, tag, -1).markup = markup;
  }
  state.pos = end;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Core passes over inline children

type Rule = (state: StateInline, silent: boolean) => boolean;

// Tokens made outside a rule; set when the engine is built.
let TokenClass: typeof Token;

function makeToken(type: string, tag: string, nesting: -1 | 0 | 1, level: number): Token {
  const token = new TokenClass(type, tag, nesting);
  token.level = level;
  return token;
}

function makeText(content: string, level: number): Token {
  const token = makeToken('text', '', 0, level);
  token.content = content;
  return token;
}

function linkTextOf(children: Token[], openIndex: number): { text: string | null; closeIndex: number } {
  let depth = 0;
  let text = '';
  let onlyText = true;
  let leading: string | null = null;
  for (let i = openIndex + 1; i < children.length; i++) {
    const t = children[i]!;
    if (t.type === 'link_open') depth++;
    if (t.type === 'link_close') {
      if (depth === 0) return { text: onlyText ? text : leading, closeIndex: i };
      depth--;
    }
    if (t.type === 'text') text += t.content;
    else if (onlyText) {
      onlyText = false;
      leading = text === '' ? null : text;
    }
  }
  return { text: onlyText ? text : leading, closeIndex: children.length - 1 };
}

// Zulip's autolink regex: a URL starts after whitespace or one of '"(,:< and ends before
// whitespace, optionally after closing punctuation.
const AUTOLINK_BEFORE = /[\s'"(,:<]$/;
const AUTOLINK_AFTER = /^[!:;?),.'">]*(?:\s|$)/;

function autolinkAllowed(text: string, previous: Token | undefined, next: Token | undefined): boolean {
  if (previous?.type === 'text' && previous.content !== '' && !AUTOLINK_BEFORE.test(previous.content)) return false;
  if (next?.type === 'text' && !AUTOLINK_AFTER.test(next.content)) return false;
  if (/^[a-z][a-z0-9+.-]*:/i.test(text) || text.includes('@')) return true;
  const host = text.split(/[/?#:]/, 1)[0]!;
  return !FALSE_POSITIVE_TLDS.has(host.slice(host.lastIndexOf('.') + 1).toLowerCase());
}

/** Links: Zulip's autolink boundaries and TLD exclusions, realm-relative rewriting, and the href as text for `[](url)`. */
function fixLinks(children: Token[], env: RenderEnv): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < children.length; i++) {
    const t = children[i]!;
    if (t.type !== 'link_open') {
      out.push(t);
      continue;
    }
    const { closeIndex } = linkTextOf(children, i);
    const inner = children.slice(i + 1, closeIndex);
    if (t.markup === 'linkify') {
      const text = inner.map((c) => c.content).join('');
      if (!autolinkAllowed(text, children[i - 1], children[closeIndex + 1])) {
        out.push(makeText(text, t.level));
        i = closeIndex;
        continue;
      }
      // linkify-it keeps these at the end of a URL; Zulip treats them as trailing punctuation.
      const trailing = /[:'">]+$/.exec(text)?.[0];
      if (trailing && inner.length === 1 && text.length > trailing.length) {
        inner[0]!.content = text.slice(0, -trailing.length);
        const href = String(t.attrGet('href') ?? '');
        if (href.endsWith(trailing)) t.attrSet('href', href.slice(0, -trailing.length));
        children.splice(closeIndex + 1, 0, makeText(trailing, t.level));
      }
    }
    const href = rewriteLocalLink(String(t.attrGet('href') ?? ''), env.realmUrl);
    t.attrSet('href', href);
    out.push(t);
    if (inner.every((c) => c.type === 'text' && c.content.trim() === '')) {
      out.push(makeText(href, t.level + 1));
      out.push(children[closeIndex]!);
      i = closeIndex;
    }
  }
  return out;
}

/** Applies a text transformation to text tokens that are not inside a link. */
function mapTextOutsideLinks(children: Token[], transform: (token: Token) => Token[] | null): Token[] {
  const out: Token[] = [];
  let linkDepth = 0;
  for (const t of children) {
    if (t.type === 'link_open') linkDepth++;
    else if (t.type === 'link_close') linkDepth--;
    const replaced = linkDepth === 0 && t.type === 'text' ? transform(t) : null;
    if (replaced) out.push(...replaced);
    else out.push(t);
  }
  return out;
}

function applyLinkifiers(children: Token[], env: RenderEnv): Token[] {
  let result = children;
  // One linkifier at a time, in order: an earlier linkifier's links are not re-linked by later ones.
  for (const { pattern, urlTemplate } of env.targets.linkifiers) {
    const linkifier = compileLinkifier(pattern, urlTemplate);
    if (!linkifier) continue;
    result = mapTextOutsideLinks(result, (token) => {
      const text = token.content;
      const pieces: Token[] = [];
      let last = 0;
      for (const match of findLinkifierMatches(linkifier, text)) {
        const href = sanitizeUrl(match.url);
        if (href === null) continue;
        if (match.start > last) pieces.push(makeText(text.slice(last, match.start), token.level));
        const open = makeToken('link_open', 'a', 1, token.level);
        open.attrs = [['href', rewriteLocalLink(href, env.realmUrl)]];
        open.markup = 'linkifier';
        pieces.push(open, makeText(match.text, token.level + 1), makeToken('link_close', 'a', -1, token.level));
        last = match.end;
      }
      if (pieces.length === 0) return null;
      if (last < text.length) pieces.push(makeText(text.slice(last), token.level));
      return pieces;
    });
  }
  return result;
}

// Unicode's emoji sequence grammar (UTS #51), as in Zulip's POSSIBLE_EMOJI_RE.
const EMOJI_ELEMENT =
  '(?:\\p{Regional_Indicator}\\p{Regional_Indicator}|\\p{Emoji}(?:\\p{Emoji_Modifier}|\\uFE0F\\u20E3?|[\\u{E0020}-\\u{E007E}]+\\u{E007F})?)';
const POSSIBLE_EMOJI_RE = new RegExp(`${EMOJI_ELEMENT}(?:\\u200D${EMOJI_ELEMENT})*`, 'gu');
// Characters that are text by default (digits, ↔, ©…) are only emoji with an explicit FE0F.
const TEXT_PRESENTATION_RE = /^\P{Emoji_Presentation}\u20E3?$/u;

function wrapUnicodeEmoji(children: Token[]): Token[] {
  return mapTextOutsideLinks(children, (token) => {
    const text = token.content;
    // \p{Emoji} includes ASCII digits, # and *, but those alone are never converted.
    if (!/[^\x00-\x7f]/.test(text)) return null;
    const pieces: Token[] = [];
    let last = 0;
    for (const m of text.matchAll(POSSIBLE_EMOJI_RE)) {
      if (TEXT_PRESENTATION_RE.test(m[0])) continue;
      const code = codeFromEmojiText(m[0]);
      const name = unicodeEmojiNameForCode(code);
      if (name === undefined) continue;
      if (m.index > last) pieces.push(makeText(text.slice(last, m.index), token.level));
      const html = makeToken('zulip_inline_html', '', 0, token.level);
      html.content = emojiSpan(code, name);
      pieces.push(html);
      last = m.index + m[0].length;
    }
    if (pieces.length === 0) return null;
    if (last < text.length) pieces.push(makeText(text.slice(last), token.level));
    return pieces;
  });
}

function inlinePostRule(state: StateCore): void {
  const env = renderEnv(state);
  for (const token of state.tokens) {
    if (token.type !== 'inline' || !token.children) continue;
    let children = fixLinks(token.children, env);
    if (env.targets.linkifiers.length > 0) children = applyLinkifiers(children, env);
    token.children = wrapUnicodeEmoji(children);
  }
}

/** The core `inline` rule, but telling the inline rules whether they are inside a quote. */
function inlineRule(state: StateCore): void {
  const env = renderEnv(state);
  let quoteDepth = 0;
  for (const token of state.tokens) {
    if (token.type === 'blockquote_open') quoteDepth++;
    else if (token.type === 'blockquote_close') quoteDepth--;
    else if (token.type === 'inline') {
      env.inBlockquote = quoteDepth > 0;
      state.md.inline.parse(token.content, state.md, state.env, token.children ?? (token.children = []));
    }
  }
  env.inBlockquote = false;
}

// ---------------------------------------------------------------------------------------------
// Document pass: link flags, attachments and inline image previews

const INLINE_PREVIEW_LIMIT = 24;

interface FoundLink {
  href: string;
  text: string | null;
  inQuote: boolean;
  blockIndex: number;
  childIndex: number;
  closeIndex: number;
  topLevel: boolean;
}

/** Where the previews go: after their paragraphs, at the end, or in place of a bare-URL paragraph or link. */
interface PreviewPlan {
  afterBlock: Map<number, string[]>; // index of the paragraph's inline token → previews
  atEnd: string[];
  removeParagraph: Set<number>;
  removeLinks: Map<number, [number, number][]>;
}

function documentRule(state: StateCore): void {
  const env = renderEnv(state);
  const found = collectLinks(state.tokens);
  env.hasLink = found.length > 0;
  for (const link of found) {
    const pathId = attachmentPathId(link.href, env.realmUrl);
    if (pathId !== null && !env.attachmentPathIds.includes(pathId)) env.attachmentPathIds.push(pathId);
  }

  // Zulip does not preview links in quotes, and previews nothing when there are too many links.
  const previewable = new Set(found.filter((l) => !l.inQuote).map((l) => l.href));
  if (previewable.size === 0 || previewable.size > INLINE_PREVIEW_LIMIT) return;
  state.tokens = withPreviews(state.tokens, planPreviews(state.tokens, found, env));
}

/** Every link of the message (markdown links and Zulip's inline HTML ones), in order. */
function collectLinks(tokens: Token[]): FoundLink[] {
  const found: FoundLink[] = [];
  let quoteDepth = 0;
  tokens.forEach((token, blockIndex) => {
    if (token.type === 'blockquote_open') quoteDepth++;
    else if (token.type === 'blockquote_close') quoteDepth--;
    if (token.type !== 'inline' || !token.children) return;
    token.children.forEach((child, childIndex, children) => {
      let href: string | null = null;
      let text: string | null = null;
      let closeIndex = childIndex;
      if (child.type === 'link_open') {
        href = String(child.attrGet('href') ?? '');
        ({ text, closeIndex } = linkTextOf(children, childIndex));
      } else if (child.type === 'zulip_inline_html' && typeof child.meta?.['href'] === 'string') {
        href = child.meta['href'] as string;
      }
      if (href === null) return;
      found.push({ href, text, inQuote: quoteDepth > 0, blockIndex, childIndex, closeIndex, topLevel: child.level === 0 });
    });
  });
  return found;
}

function planPreviews(tokens: Token[], found: FoundLink[], env: ReturnType<typeof renderEnv>): PreviewPlan {
  const plan: PreviewPlan = { afterBlock: new Map(), atEnd: [], removeParagraph: new Set(), removeLinks: new Map() };
  const seen = new Set<string>();
  for (const link of found) {
    if (link.inQuote || seen.has(link.href)) continue;
    seen.add(link.href);
    // TODO: Zulip also previews videos, YouTube/Vimeo and Dropbox links, and fetches URL embeds.
    // An upload of this organization is previewed when it is an image (its thumbnail), else not.
    const pathId = attachmentPathId(link.href, env.realmUrl);
    let image: string;
    if (pathId !== null) {
      const preview = env.targets.uploadPreviews?.get(pathId);
      if (!preview) continue;
      image = uploadPreviewImage(pathId, preview);
    } else {
      if (!isImageUrl(link.href)) continue;
      image = element('img', { src: actualImageUrl(link.href) }, null);
    }

    const urlIsText = link.text === null || link.text === link.href;
    const attrs: Record<string, string> = { href: link.href };
    if (!urlIsText) attrs['title'] = link.text!;
    const html = `<div class="message_inline_image">${element('a', attrs, image)}</div>`;
    env.hasImage = true;

    const paragraphOpen = tokens[link.blockIndex - 1];
    if (!link.topLevel || paragraphOpen?.type !== 'paragraph_open') {
      // Zulip appends previews of links nested in other markup to the end of the message.
      plan.atEnd.push(html);
      continue;
    }
    const list = plan.afterBlock.get(link.blockIndex) ?? [];
    list.push(html);
    plan.afterBlock.set(link.blockIndex, list);

    // A paragraph (or tight list item) that is just the bare URL is replaced by its preview.
    const children = tokens[link.blockIndex]!.children!;
    const alone = link.childIndex === 0 && link.closeIndex === children.length - 1;
    if (alone && urlIsText) {
      if (paragraphOpen.hidden) plan.removeLinks.set(link.blockIndex, [[link.childIndex, link.closeIndex]]);
      else plan.removeParagraph.add(link.blockIndex);
    }
  }
  return plan;
}

function withPreviews(tokens: Token[], { afterBlock, atEnd, removeParagraph, removeLinks }: PreviewPlan): Token[] {
  const out: Token[] = [];
  const htmlToken = (content: string) => {
    const t = makeToken('zulip_block_html', '', 0, 0);
    t.content = content;
    t.block = true;
    return t;
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const inlineIndex = token.type === 'paragraph_open' ? i + 1 : -1;
    if (inlineIndex > 0 && removeParagraph.has(inlineIndex)) {
      out.push(htmlToken(afterBlock.get(inlineIndex)!.join('')));
      i += 2; // paragraph_open, inline, paragraph_close
      continue;
    }
    const ranges = removeLinks.get(i);
    if (ranges && token.children) {
      token.children = token.children.filter((_c, j) => !ranges.some(([a, b]) => j >= a && j <= b));
    }
    out.push(token);
    if (token.type === 'paragraph_close' && afterBlock.has(i - 1)) out.push(htmlToken(afterBlock.get(i - 1)!.join('')));
  }
  if (atEnd.length > 0) out.push(htmlToken(atEnd.join('')));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Engine

let engine: Engine | undefined;

function getEngine(): Engine {
  engine ??= createEngine();
  return engine;
}

function createEngine(): Engine {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: true, xhtmlOut: false });
  md.linkify.set({ fuzzyLink: true, fuzzyEmail: true });
  md.linkify.tlds(EXTRA_TLDS, true);

  // Zulip disables: setext headings (only `#` headings), reference links (meaningless in chat),
  // images (`![x](u)` stays a link; previews come from the URL), `<url>` autolinks and backslash
  // escapes; its own strikethrough replaces GFM's.
  md.disable(['lheading', 'reference', 'image', 'autolink', 'escape', 'strikethrough']);

  md.validateLink = (url) => url !== '';
  md.normalizeLink = (url) => sanitizeUrl(url) ?? '';
  md.normalizeLinkText = (text) => text;

  TokenClass = new md.core.State('', md, {}).Token;

  md.block.ruler.at('fence', fenceRule, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });

  // Zulip keeps the spaces around inline code (`` ` x ` `` is " x "), CommonMark strips one.
  const backticks = md.inline.ruler.__rules__.find((r) => r.name === 'backticks')!.fn as Rule;
  md.inline.ruler.at('backticks', (state, silent) => {
    const start = state.pos;
    const before = state.tokens.length;
    if (!backticks(state, silent)) return false;
    const last = state.tokens[state.tokens.length - 1];
    if (!silent && state.tokens.length > before && last?.type === 'code_inline') {
      last.content = state.src.slice(start + last.markup.length, state.pos - last.markup.length).replace(/\n/g, ' ');
    }
    return true;
  });
  md.inline.ruler.before('linkify', 'zulip_mention', mentionRule);
  md.inline.ruler.before('linkify', 'zulip_channel_link', channelLinkRule);
  md.inline.ruler.before('linkify', 'zulip_timestamp', timestampRule);
  md.inline.ruler.before('emphasis', 'zulip_underscore', underscoreRule);
  md.inline.ruler.before('emphasis', 'zulip_strikethrough', strikethroughRule);
  md.inline.ruler.before('emphasis', 'zulip_strong_em', strongEmRule);
  // After linkify, so `https://host/:x:` stays one URL.
  md.inline.ruler.after('linkify', 'zulip_emoji', emojiRule);

  md.core.ruler.at('inline', inlineRule);
  md.core.ruler.after('text_join', 'zulip_inline_post', inlinePostRule);
  md.core.ruler.push('zulip_document', documentRule);

  const rules = md.renderer.rules;
  rules.text = (tokens, idx) => escapeText(tokens[idx]!.content);
  rules.code_inline = (tokens, idx) => `<code>${escapeText(tokens[idx]!.content)}</code>`;
  rules.code_block = (tokens, idx) => renderCodeBlock(tokens[idx]!.content.replace(/^\n+|\n+$/g, ''), null);
  rules['zulip_code'] = (tokens, idx) => renderCodeBlock(tokens[idx]!.content, tokens[idx]!.info || null);
  // Python-Markdown's tables write alignment as `text-align: center;`.
  for (const cell of ['th_open', 'td_open']) {
    rules[cell] = (tokens, idx, options, _env, self) => {
      const style = tokens[idx]!.attrGet('style');
      if (typeof style === 'string') tokens[idx]!.attrSet('style', style.replace(/^text-align:(\w+)$/, 'text-align: $1;'));
      return self.renderToken(tokens, idx, options);
    };
  }
  rules['zulip_inline_html'] = (tokens, idx) => tokens[idx]!.content;
  rules['zulip_block_html'] = (tokens, idx) => tokens[idx]!.content;
  return md;
}

/** Bare web links in plain text (a topic), found as message autolinks are; no scheme means https. */
export function webLinksIn(text: string): { start: number; end: number; text: string; url: string }[] {
  return (getEngine().linkify.match(text) ?? [])
    .filter((m) => m.schema !== 'mailto:')
    .map((m) => ({ start: m.index, end: m.lastIndex, text: m.raw, url: m.schema === '' ? `https://${m.raw}` : m.url }));
}

export function renderMarkdown(content: string, targets: MentionTargets, options: RenderOptions = {}): RenderResult {
  const env: RenderEnv = {
    targets,
    realmUrl: normalizeRealmUrl(options.realmUrl),
    inBlockquote: false,
    mentionedUserIds: new Set(),
    mentionedGroupIds: new Set(),
    streamWildcard: false,
    topicWildcard: false,
    hasLink: false,
    hasImage: false,
    attachmentPathIds: [],
  };
  // Zulip's output has no trailing newline.
  const html = getEngine().render(content, env as unknown as Record<string, unknown>).replace(/\n+$/, '');
  return {
    html,
    mentionedUserIds: [...env.mentionedUserIds],
    mentionedGroupIds: [...env.mentionedGroupIds],
    wildcardMention: env.streamWildcard ? 'stream' : env.topicWildcard ? 'topic' : null,
    mentionsTopicWildcard: env.topicWildcard,
    hasLink: env.hasLink,
    hasImage: env.hasImage,
    hasAttachment: env.attachmentPathIds.length > 0,
    potentialAttachmentPathIds: env.attachmentPathIds,
    isMeMessage: content.startsWith('/me ') && !content.includes('\n') && html.startsWith('<p>') && html.endsWith('</p>'),
  };
}
