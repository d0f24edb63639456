// Zulip's JSON formatter integration: whatever JSON object a service posts, shown as a code block,
// for services without an integration of their own.
import type { Integration } from '../integration.ts';

/** Python's json.dumps(indent=2): JSON.stringify's layout, with non-ASCII escaped (ensure_ascii). */
function pythonJsonDumps(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export const json: Integration = {
  urlName: 'json',
  displayName: 'JSON',
  eventTypes: null,
  translate(request) {
    const payload = request.payload();
    // Zulip takes an object only (JsonBodyPayload[dict]).
    payload.entries();
    return { messages: [{ topic: 'JSON', content: `\`\`\`json\n${pythonJsonDumps(payload.raw())}\n\`\`\`` }] };
  },
};
