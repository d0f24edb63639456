// Ansible Tower's and AWX's job notifications (a "Webhook" notification template), as Zulip's
// zerver/webhooks/ansibletower renders them: one line per job, with each host's result for playbook
// runs, under the job's name.
import { BadRequestError } from '../../errors.ts';
import type { Integration } from '../integration.ts';
import type { WildValue } from '../payload.ts';

export const ansibletower: Integration = {
  urlName: 'ansibletower',
  displayName: 'AnsibleTower',
  eventTypes: null,
  translate(request) {
    const payload = request.payload();
    const kind = kindOf(payload);
    const outcome = (): string => (payload.get('status').str() === 'successful' ? 'was successful' : 'failed');

    let content: string;
    if (kind === 'Job') {
      const hosts = payload.get('hosts').entries()
        .map(([host, data]) => [host, data.get('failed').bool() ? 'Failed' : 'Success'] as const)
        .sort(([a], [b]) => byCodePoints(a, b));
      const status = outcome();
      content = `${kind}: ${link(payload)} ${status}:` + hosts.map(([host, result]) => `\n* ${host}: ${result}`).join('');
    } else {
      const status = outcome();
      content = `${kind}: ${link(payload)} ${status}.`;
    }
    return { messages: [{ topic: payload.get('name').str(), content }] };
  },
};

function link(payload: WildValue): string {
  const name = payload.get('name').str();
  const id = payload.get('id').int();
  const url = payload.get('url').str();
  return `[#${id} ${name}](${url})`;
}

/**
 * What ran (`Job`, `Project Update`, ...): AWX 9 and later no longer send `friendly_name`, so it is
 * read from the job's URL (`https://tower/#/jobs/playbook/1`), as Zulip does.
 */
function kindOf(payload: WildValue): string {
  const friendlyName = payload.has('friendly_name') ? payload.get('friendly_name').str() : '';
  if (friendlyName) return friendlyName;
  const url = payload.get('url');
  const segments = url.str().split('/');
  if (segments.length < 3) throw new BadRequestError(`${url.varName} is not the URL of a job`);
  const segment = segments[segments.length - 3]!;
  return segment === 'jobs' ? 'Job' : segment;
}

/** Python's string order (by code point), which Zulip lists the hosts in. */
function byCodePoints(a: string, b: string): number {
  const left = Array.from(a, (c) => c.codePointAt(0)!);
  const right = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    if (left[i] !== right[i]) return left[i]! - right[i]!;
  }
  return left.length - right.length;
}
