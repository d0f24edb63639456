// Linkifier patterns and URL templates. Patterns are Zulip's (Python re2 syntax, named groups
// `(?P<name>...)`) and run through re2js: RE2 matches in linear time, so an administrator's
// pattern cannot be made to backtrack catastrophically on a message. URL templates are RFC 6570,
// parsed and expanded by uri-template.
import { RE2JS, RE2JSSyntaxException } from 're2js';
import { parse as parseUriTemplate } from 'uri-template';

type UriTemplate = ReturnType<typeof parseUriTemplate>;

// re2js reports errors in Go's words; Zulip shows the C++ RE2 library's (its Python binding).
const RE2_ERROR_TEXT: Record<string, string> = {
  'invalid named capture': 'invalid named capture group',
  'duplicate capture group name': 'invalid named capture group',
  'invalid or unsupported Perl syntax': 'invalid perl operator',
  'invalid nested repetition operator': 'bad repetition operator',
  'invalid repeat count': 'invalid repetition size',
  'missing closing ]': 'missing ]',
  'missing closing )': 'missing )',
  'missing argument to repetition operator': 'no argument for repetition operator',
  'trailing backslash at end of expression': 'trailing \\',
};

/** Compiles a pattern as written; throws Zulip's "Bad regular expression" sentence. */
export function compilePattern(pattern: string): RE2JS {
  try {
    return RE2JS.compile(pattern);
  } catch (error) {
    if (error instanceof RE2JSSyntaxException) {
      const text = RE2_ERROR_TEXT[error.error] ?? error.error;
      throw new PatternError(`Bad regular expression: ${text}${error.input ? `: ${error.input}` : ''}`);
    }
    throw new PatternError('Unknown regular expression error');
  }
}

export class PatternError extends Error {}

/** The named groups of a compiled pattern. */
export function groupNames(re: RE2JS): Set<string> {
  return new Set(Object.keys(re.namedGroups()));
}

/** Parses an RFC 6570 template, or null when it is not one. */
export function parseTemplate(template: string): UriTemplate | null {
  try {
    return parseUriTemplate(template);
  } catch {
    return null;
  }
}

/** The variable names a parsed template uses, in order of appearance. */
export function templateVariables(template: UriTemplate): string[] {
  const names: string[] = [];
  for (const part of template.ast.parts) {
    if (part.type !== 'expression') continue;
    for (const variable of part.variables) if (!names.includes(variable.name)) names.push(variable.name);
  }
  return names;
}

// ---------------------------------------------------------------------------------------------
// Matching in messages

const BEFORE = 'parley_linkifier_before';
const OUTER = 'parley_linkifier_outer';

export interface CompiledLinkifier {
  re: RE2JS;
  template: UriTemplate;
  groups: string[];
}

const compiled = new Map<string, CompiledLinkifier | null>();

/**
 * Zulip's prepare_linkifier_pattern: the pattern only matches after the start, whitespace or an
 * opening delimiter, and not when a letter or digit follows. RE2 has no lookaround, so the
 * delimiters are matched as groups and only the middle group becomes the link.
 */
export function compileLinkifier(pattern: string, urlTemplate: string): CompiledLinkifier | null {
  const key = pattern + '\u0000' + urlTemplate;
  const cached = compiled.get(key);
  if (cached !== undefined) return cached;
  let result: CompiledLinkifier | null = null;
  const template = parseTemplate(urlTemplate);
  if (template) {
    try {
      const re = RE2JS.compile(`(?P<${BEFORE}>^|\\s|\\x{85}|\\pZ|['"\\(,:<])(?P<${OUTER}>${pattern})(?:$|[^\\pL\\pN])`);
      const groups = Object.keys(re.namedGroups()).filter((name) => name !== BEFORE && name !== OUTER);
      result = { re, template, groups };
    } catch {
      // Stored linkifiers were validated; one that no longer compiles is skipped, not fatal.
    }
  }
  if (compiled.size > 1000) compiled.clear();
  compiled.set(key, result);
  return result;
}

// encodeURIComponent throws on lone surrogates; Python's quote encodes U+FFFD instead.
export function wellFormed(s: string): string {
  return s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

export interface LinkifierMatch {
  start: number;
  end: number;
  text: string;
  url: string;
}

/** Every match of a linkifier in a text, left to right, with its expanded URL. */
export function findLinkifierMatches(linkifier: CompiledLinkifier, text: string): LinkifierMatch[] {
  const out: LinkifierMatch[] = [];
  const m = linkifier.re.matcher(text);
  let from = 0;
  while (from <= text.length && m.find(from)) {
    const start = m.start(OUTER);
    const end = m.end(OUTER);
    // The closing delimiter is not part of the link and may open the next match.
    if (end <= start) {
      from = Math.max(m.end(0), from + 1);
      continue;
    }
    const values: Record<string, string> = {};
    for (const name of linkifier.groups) {
      const value = m.group(name);
      if (value !== null) values[name] = wellFormed(value);
    }
    out.push({ start, end, text: text.slice(start, end), url: linkifier.template.expand(values) });
    from = end;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reverse templates: `{name}` placeholders, `{{` and `}}` for literal braces.

export type ReversePart = { literal: string } | { variable: string };

/** Splits a reverse template, or returns null when a brace is unbalanced or a name is empty. */
export function parseReverseTemplate(template: string): ReversePart[] | null {
  const parts: ReversePart[] = [];
  let literal = '';
  for (let i = 0; i < template.length; i++) {
    const ch = template[i];
    if (ch === '{' && template[i + 1] === '{') {
      literal += '{';
      i++;
    } else if (ch === '}' && template[i + 1] === '}') {
      literal += '}';
      i++;
    } else if (ch === '{') {
      const close = template.indexOf('}', i + 1);
      if (close < 0) return null;
      const name = template.slice(i + 1, close);
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return null;
      if (literal) parts.push({ literal });
      literal = '';
      parts.push({ variable: name });
      i = close;
    } else if (ch === '}') {
      return null;
    } else {
      literal += ch;
    }
  }
  if (literal) parts.push({ literal });
  return parts;
}

export function fillReverseTemplate(parts: ReversePart[], values: Record<string, string | null>): string {
  return parts.map((p) => ('literal' in p ? p.literal : (values[p.variable] ?? ''))).join('');
}

/** The named groups' values when the whole input matches the pattern, else null. */
export function extractGroups(re: RE2JS, input: string): Record<string, string | null> | null {
  const m = re.matcher(input);
  if (!m.matches()) return null;
  return m.getNamedGroups();
}

// ---------------------------------------------------------------------------------------------
// Topic links (Zulip's topic_links): the linkifier matches and bare URLs in a topic, left to right.
// Where matches overlap, the earlier linkifier in the realm's order wins, and any linkifier wins
// over a bare URL.

export function findTopicLinks(
  linkifiers: { pattern: string; urlTemplate: string }[],
  topic: string,
  webLinks: LinkifierMatch[] = [],
): { text: string; url: string }[] {
  if (!topic) return [];
  const candidates: (LinkifierMatch & { precedence: number })[] = [];
  linkifiers.forEach(({ pattern, urlTemplate }, precedence) => {
    const linkifier = compileLinkifier(pattern, urlTemplate);
    if (linkifier) for (const match of findLinkifierMatches(linkifier, topic)) candidates.push({ ...match, precedence });
  });
  candidates.sort((a, b) => a.precedence - b.precedence || a.start - b.start);
  // Bare URLs come last: any linkifier match wins over them.
  for (const link of webLinks) candidates.push({ ...link, precedence: Infinity });
  const chosen: LinkifierMatch[] = [];
  for (const c of candidates) {
    if (chosen.some((k) => c.start < k.end && k.start < c.end)) continue;
    chosen.push(c);
  }
  return chosen.sort((a, b) => a.start - b.start).map(({ text, url }) => ({ text, url }));
}
