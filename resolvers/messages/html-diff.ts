// The `content_html_diff` of an edit-history entry: the new rendering with changed words marked, as
// Zulip's highlight_html_differences does with lxml's htmldiff (words compared without their
// trailing white space, insertions before deletions, only text wrapped, markup taken from the new
// rendering), with Zulip's classes instead of <ins>/<del>.
import { diffArrays } from 'diff';

interface Token {
  /** A tag, or a word without its trailing white space. */
  text: string;
  isTag: boolean;
  /** White space after the word (kept outside the highlight). */
  trailing: string;
}

const TOKEN = /(<[^>]*>)|([^<\s]+)(\s*)|(\s+)/g;

function tokenize(html: string): Token[] {
  const tokens: Token[] = [];
  for (const m of html.matchAll(TOKEN)) {
    if (m[1] !== undefined) tokens.push({ text: m[1], isTag: true, trailing: '' });
    else if (m[2] !== undefined) tokens.push({ text: m[2], isTag: false, trailing: m[3] ?? '' });
    else if (tokens.length) tokens[tokens.length - 1]!.trailing += m[4];
    else tokens.push({ text: '', isTag: false, trailing: m[4]! });
  }
  return tokens;
}

/** Words wrapped in one span per run; tags (of the new rendering) kept as they are. */
function highlight(tokens: Token[], cls: string, keepTags: boolean): string {
  let out = '';
  let run: Token[] = [];
  const flush = () => {
    if (!run.length) return;
    const body = run.map((t, i) => t.text + (i < run.length - 1 ? t.trailing : '')).join('');
    out += `<span class="${cls}">${body}</span>${run[run.length - 1]!.trailing}`;
    run = [];
  };
  for (const token of tokens) {
    if (token.isTag) {
      flush();
      if (keepTags) out += token.text + token.trailing;
    } else if (token.text) run.push(token);
    else out += token.trailing;
  }
  flush();
  return out;
}

export function highlightHtmlDifferences(before: string, after: string): string {
  const changes = diffArrays(tokenize(before), tokenize(after), { comparator: (a, b) => a.isTag === b.isTag && a.text === b.text });
  let out = '';
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i]!;
    const next = changes[i + 1];
    if (change.removed && next?.added) {
      out += highlight(next.value, 'highlight_text_inserted', true) + highlight(change.value, 'highlight_text_deleted', false);
      i++;
    } else if (change.added) out += highlight(change.value, 'highlight_text_inserted', true);
    else if (change.removed) out += highlight(change.value, 'highlight_text_deleted', false);
    else out += change.value.map((t) => t.text + t.trailing).join('');
  }
  return out;
}
