// Travis CI's build notifications, as Zulip's zerver/webhooks/travis renders them. Travis posts a
// form whose `payload` field holds the build as JSON; its `type` (push, pull_request, api...) is
// the event type.
import { BadRequestError } from '../../errors.ts';
import type { Integration } from '../integration.ts';
import { pythonSplitlines } from '../python.ts';
import { strip, topicWithBranch } from './git.ts';

const STATUSES = new Map([
  ['Passed', '**passed** :check:'],
  ['Fixed', 'was **fixed** :check:'],
  ['Failed', '**failed** :cross_mark:'],
  ['Broken', 'is **broken** :cross_mark:'],
  ['Still Failing', 'is **still failing** :rotating_light:'],
  ['Canceled', 'was **canceled** :no_entry:'],
  ['Errored', '**errored** :cross_mark:'],
  ['Pending', 'is **being built** :time_ticking:'],
]);

export const travis: Integration = {
  urlName: 'travis',
  displayName: 'Travis',
  eventTypes: ['push', 'pull_request', 'api'],
  translate(request) {
    const build = request.jsonParam('payload');
    // Zulip validates the whole build (a pydantic model) before it writes anything.
    const author = build.get('author_name').str();
    const statusMessage = build.get('status_message').str();
    const compareUrl = build.get('compare_url').str();
    const buildUrl = build.get('build_url').str();
    const event = build.get('type').str();
    const message = build.opt('message').optStr();
    const number = build.get('number').str();
    const branch = build.get('branch').str();
    const repository = build.get('repository').get('name').str();
    const prNumber = build.opt('pull_request_number').optInt();
    const prTitle = build.opt('pull_request_title').optStr();

    const status = STATUSES.get(statusMessage);
    if (status === undefined) throw new BadRequestError(`Unknown build status: ${statusMessage}`);
    // Only the summary line; a message of nothing but whitespace has none either.
    const commit = pythonSplitlines(strip(message ?? ''))[0] || '(no commit message)';
    const trigger = event === 'api' ? ` (triggered by ${event})` : '';
    const content = `**Build [#${number}](${buildUrl})** ${status} for commit: [${commit}](${compareUrl}) by ${author}${trigger}.`;
    const topic = event === 'pull_request'
      ? `${repository} / PR #${prNumber ?? 'None'} ${prTitle ?? 'None'}`
      : topicWithBranch(repository, branch);
    return { eventType: event, messages: [{ topic, content }] };
  },
};
