// AppVeyor's build notifications (its "Webhook" notification with the default JSON), as Zulip's
// zerver/webhooks/appveyor renders them: the build, its last commit and its times, under the project.
import { BadRequestError } from '../../errors.ts';
import type { Integration } from '../integration.ts';
import type { WildValue } from '../payload.ts';

export const appveyor: Integration = {
  urlName: 'appveyor',
  displayName: 'Appveyor',
  eventTypes: null,
  translate(request) {
    const data = request.payload().get('eventData');
    const field = (name: string) => data.get(name).str();
    const project = field('projectName');
    const version = field('buildVersion');
    const status = field('status');
    const buildUrl = field('buildUrl');
    const commitUrl = field('commitUrl');
    const committer = field('committerName');
    field('commitDate'); // Unused, but Zulip refuses a payload without it.
    const commitMessage = field('commitMessage');
    const commitId = field('commitId');
    const started = globalTimeOfAppveyor(data.get('started'));
    const finished = globalTimeOfAppveyor(data.get('finished'));

    const content = `[Build ${project} ${version} ${status}](${buildUrl}):\n`
      + `* **Commit**: [${commitId}: ${commitMessage}](${commitUrl}) by ${committer}\n`
      + `* **Started**: ${started}\n`
      + `* **Finished**: ${finished}`;
    return { messages: [{ topic: project, content }] };
  },
};

/**
 * AppVeyor's times (`9/9/2018 7:04 PM`, UTC) as Zulip's `<time:…>`: Python's strptime with
 * "%m/%d/%Y %I:%M %p", as strict about ranges and as lenient about leading zeros.
 */
function globalTimeOfAppveyor(value: WildValue): string {
  const text = value.str();
  const match = /^(1[0-2]|0[1-9]|[1-9])\/(3[01]|[12]\d|0[1-9]|[1-9]| [1-9])\/(\d{4})\s+(1[0-2]|0[1-9]|[1-9]):([0-5]\d|\d)\s+(am|pm)$/i.exec(text);
  const [, month = '', day = '', year = '', hour12 = '', minute = '', meridiem = ''] = match ?? [];
  const date = new Date(0);
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  if (!match || Number(year) < 1 || date.getUTCDate() !== Number(day.trim())) {
    throw new BadRequestError(`${value.varName} is not a time AppVeyor writes: ${text}`);
  }
  const hour = (Number(hour12) % 12) + (meridiem.toLowerCase() === 'pm' ? 12 : 0);
  const pad = (n: number | string, width = 2) => String(n).trim().padStart(width, '0');
  return `<time:${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:00+00:00>`;
}
