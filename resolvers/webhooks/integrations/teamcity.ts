// TeamCity's "Legacy Webhook (JSON)" payloads, from the tcWebHooks plugin (Zulip's
// zerver/webhooks/teamcity): one sentence on a build's result, in a topic named after the build.
// A personal build is told to the person who started it, found among the organization's users.
import { BadRequestError } from '../../errors.ts';
import type { Integration, WebhookOutcome, WebhookUser } from '../integration.ts';
import type { WildValue } from '../payload.ts';
import { guessUser } from './jira.ts';

/** The bot owner's notice when TeamCity sends another of its payload formats (Slack's, say). */
const misconfiguredNotice = (botName: string, supportEmail: string) => `Hi there! Your bot ${botName} just received a TeamCity payload in a
format that Zulip doesn't recognize. This usually indicates a
configuration issue in your TeamCity webhook settings. Please make sure
that you set the **Payload Format** option to **Legacy Webhook (JSON)**
in your TeamCity webhook configuration. Contact ${supportEmail} if you
need further help!`;

/** The value of the build's TeamCity property `name`; null when it has none. */
function property(build: WildValue, name: string): string | null {
  const found = build.get('teamcityProperties').list().find((p) => p.get('name').str() === name);
  return found ? found.get('value').str() : null;
}

function status(build: WildValue, result: string, delta: string, buildStatus: string): string {
  if (result === 'success') return delta === 'fixed' ? 'has been fixed! :thumbs_up:' : 'was successful! :thumbs_up:';
  if (result === 'failure') return `is ${delta === 'broken' ? '' : 'still '}broken with status ${buildStatus}! :thumbs_down:`;
  if (result === 'running') return 'has started.';
  // Zulip fails here with a server error; the result is the payload's to get right.
  throw new BadRequestError(`${build.get('buildResult').varName} is not a build result`);
}

/**
 * Who started a personal build: the organization's user Zulip guesses from TeamCity's full name for
 * them, else from their TeamCity username; null when neither matches.
 */
function personalBuildUser(build: WildValue, users: readonly WebhookUser[]): WebhookUser | null {
  const byFullName = guessUser(users, build.get('triggeredBy').str().split(';')[0]!);
  if (byFullName) return byFullName;
  const username = property(build, 'teamcity.build.triggeredBy.username');
  return username === null ? null : guessUser(users, username);
}

export const teamcity: Integration = {
  urlName: 'teamcity',
  displayName: 'TeamCity',
  eventTypes: null,
  readsUsers: true,
  translate(request, users = []): WebhookOutcome {
    const payload = request.payload();
    if (!payload.has('build')) return { messages: [], ownerNotice: misconfiguredNotice };
    const build = payload.get('build');
    const name = build.get('buildFullName').str();
    const logUrl = build.get('buildStatusUrl').str();
    const number = build.get('buildNumber').str();
    const result = build.get('buildResult').str();
    const delta = build.get('buildResultDelta').str();
    const buildStatus = build.get('buildStatus').str();
    const content = `${name} build ${number} ${status(build, result, delta, buildStatus)} See [changes](${logUrl}&tab=buildChangesDiv) and [build log](${logUrl}).`;
    const topic = build.has('branchDisplayName') ? `${name} (${build.get('branchDisplayName').str()})` : name;
    if (property(build, 'env.BUILD_IS_PERSONAL') !== 'true') return { messages: [{ topic, content }] };
    const user = personalBuildUser(build, users);
    // Nobody to tell: Zulip says nothing.
    if (user === null) return { messages: [] };
    return { messages: [{ topic, content: `Your personal build for ${content}`, directTo: user.id }] };
  },
};
