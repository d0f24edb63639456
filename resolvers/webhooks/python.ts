// How Zulip's integrations print a JSON value they did not expect to be a string: Python's str() and
// repr(). Users see these in messages (`**{'href': '...'}**`, `['error']`), so they are Python's to
// the character.

/**
 * Python's str() of a JSON value. A JSON number without a fraction is a Python int; with one, a
 * float, whose repr switches to exponents at other bounds than JavaScript's. (A `1.0` in the JSON
 * arrives here as 1 and prints as an int.)
 */
export function pythonStr(value: unknown): string {
  return typeof value === 'string' ? value : pythonRepr(value);
}

/** Python's repr() of a JSON value. */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : pythonFloat(value);
  if (typeof value === 'string') return pythonStringRepr(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  return `{${Object.entries(value as object).map(([k, v]) => `${pythonRepr(k)}: ${pythonRepr(v)}`).join(', ')}}`;
}

function pythonStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = '';
  for (const char of text) {
    if (char === '\\' || char === quote) out += `\\${char}`;
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    // What Python's str.isprintable() refuses.
    else if (char !== ' ' && /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Z}]/u.test(char)) out += pythonEscape(char.codePointAt(0)!);
    else out += char;
  }
  return quote + out + quote;
}

function pythonEscape(code: number): string {
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\U${code.toString(16).padStart(8, '0')}`;
}

function pythonFloat(n: number): string {
  const [digits, exponentText] = n.toExponential().split('e');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) {
    return `${digits}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return String(n);
}

/**
 * Python's urllib.parse.unquote: %XX escapes decoded as UTF-8, a byte sequence that is not UTF-8
 * becoming U+FFFD (errors="replace"), anything else left as it is.
 */
export function pythonUnquote(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8'));
}

/**
 * Python's fnmatch.fnmatch on POSIX (case-sensitive): `*`, `?`, `[seq]` and `[!seq]`. Glob
 * libraries differ on purpose (`*` stops at `/`, braces expand), and users' patterns were written
 * for Zulip, so its semantics are spelled out here.
 */
export function fnmatch(name: string, pattern: string): boolean {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') source += '.*';
    else if (c === '?') source += '.';
    else if (c === '[') {
      let j = i + 1;
      if (pattern[j] === '!') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j++;
      if (j >= pattern.length) source += '\\[';
      else {
        // A `]` first in the set is one of its characters; JavaScript needs it escaped.
        let set = pattern.slice(i + 1, j).replace(/[\\\]]/g, '\\$&');
        if (set.startsWith('!')) set = '^' + set.slice(1);
        else if (set.startsWith('^')) set = '\\' + set;
        source += `[${set}]`;
        i = j;
      }
    } else source += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^(?:${source})$`, 's').test(name);
}

/**
 * Python's str.splitlines(): the lines of a text, split at any of Python's line boundaries (which
 * include \v, \f, U+001C–U+001E, U+0085, U+2028 and U+2029 besides \n, \r and \r\n), without them.
 */
export function pythonSplitlines(text: string): string[] {
  const lines = text.split(/\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/);
  // A final line boundary ends the last line rather than opening an empty one.
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}
