// Buildbot's Zulip reporter (ZulipStatusPush), as Zulip's zerver/webhooks/buildbot renders it: a
// build has started (`new`) or finished with one of Buildbot's result codes.
import { BadRequestError, UnsupportedWebhookEventTypeError } from '../../errors.ts';
import type { Integration } from '../integration.ts';
import type { WildValue } from '../payload.ts';

const NAME = 'Buildbot';

// Buildbot's result codes, in order (http://docs.buildbot.net/latest/developer/results.html).
const RESULTS = ['success', 'warnings', 'failure', 'skipped', 'exception', 'retry', 'cancelled'];

export const buildbot: Integration = {
  urlName: 'buildbot',
  displayName: NAME,
  eventTypes: ['new', 'finished'],
  translate(request) {
    const payload = request.payload();
    // Buildbot leaves the project empty when the builder has none.
    const topic = payload.get('project').str() || 'general';
    const status = payload.has('results') ? resultName(payload.get('results')) : undefined;
    const event = payload.get('event').str();
    if (event !== 'new' && event !== 'finished') throw new UnsupportedWebhookEventTypeError(NAME, event);
    const build = `Build [#${payload.get('buildid').int()}](${payload.get('url').str()})`;
    const builder = `**${payload.get('buildername').str()}**`;
    if (event === 'new') return { eventType: event, messages: [{ topic, content: `${build} for ${builder} started.` }] };
    // A finished build without a result is refused as missing one (Zulip fails with a 500).
    const result = status ?? resultName(payload.get('results'));
    return { eventType: event, messages: [{ topic, content: `${build} (result: ${result}) for ${builder} finished.` }] };
  },
};

/** The result code's name; like Zulip's tuple lookup, a negative code counts from the end. */
function resultName(code: WildValue): string {
  const index = code.int();
  const name = RESULTS[index < 0 ? RESULTS.length + index : index];
  if (name === undefined) throw new BadRequestError(`Invalid ${code.varName}`);
  return name;
}
