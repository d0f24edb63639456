// Small text helpers shared across areas.

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Length in Unicode code points, which is how Zulip counts its limits. */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

export function truncateCodePoints(text: string, max: number): string {
  return Array.from(text).slice(0, max).join('');
}
