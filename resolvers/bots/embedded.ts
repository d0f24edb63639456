// Embedded bots: bots whose logic runs inside the server. Zulip runs handlers from its zulip_bots
// Python package; Parley has its own handlers for the two that need no outside service or storage:
// helloworld and encrypt (ROT13). A handler answers a message with the reply's content, or null.
import { initialStatePart } from '../events/initial-state/parts.ts';
import { incomingWebhookIntegrations } from '../webhooks/integrations/index.ts';

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

/** An entry of `realm_incoming_webhook_bots` (Zulip's shape). */
export interface IncomingWebhookBot {
  name: string;
  display_name: string;
  all_event_types: string[] | null;
  /** Integration config options. */
  config_options: { key: string; label: string; validator: string }[];
  /** Integration URL options (`input_type` was `validator` before feature level 485). */
  url_options: { key: string; label: string; input_type: string }[];
}

// Register: the embedded bot services POST /bots accepts (none of Parley's takes configuration),
// and the incoming-webhook integrations (none of which takes bot configuration either).
initialStatePart(['realm_embedded_bots', 'realm_incoming_webhook_bots'], async (s) => ({
  ...(s.want('realm_embedded_bots') ? { realm_embedded_bots: [...EMBEDDED_BOTS.keys()].map((name) => ({ name, config: {} })) } : {}),
  ...(s.want('realm_incoming_webhook_bots') ? { realm_incoming_webhook_bots: incomingWebhookIntegrations().map((i): IncomingWebhookBot => ({
    name: i.name, display_name: i.displayName, all_event_types: i.allEventTypes, config_options: [],
    url_options: i.urlOptions.map((o) => ({ key: o.key, label: o.label, input_type: o.inputType })),
  })) } : {}),
}));
