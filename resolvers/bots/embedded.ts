// Embedded bots: bots whose logic runs inside the server. Zulip runs handlers from its zulip_bots
// Python package; Parley has its own handlers for the two that need no outside service or storage:
// helloworld and encrypt (ROT13). A handler answers a message with the reply's content, or null.

export type EmbeddedHandler = (query: string) => string | null;

function rot13(text: string): string {
  return text.replace(/[a-zA-Z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

export const EMBEDDED_BOTS: ReadonlyMap<string, EmbeddedHandler> = new Map<string, EmbeddedHandler>([
  ['helloworld', () => 'beep boop'],
  ['encrypt', (query) => `Encrypted/Decrypted text: ${rot13(query)}`],
]);
