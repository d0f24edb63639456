// Gitea's webhooks (Zulip's zerver/webhooks/gitea/view.py). Gitea is a fork of Gogs and sends the
// same events, so Zulip serves it with the Gogs translation; only a pull request reads differently.
// Forgejo, a fork of Gitea, sends X-Gitea-Event too, so this URL serves it as well.
import type { Integration } from '../integration.ts';
import type { WildValue } from '../payload.ts';
import { getPullRequestEventMessage } from './git.ts';
import { BRANCHES_OPTION, gogsTranslator, pullRequestBasics } from './gogs.ts';

/** Gitea's pull requests: the sender acts, the branches are `head.ref`/`base.ref`, the assignee is named. */
function giteaPullRequestMessage(payload: WildValue, includeTitle: boolean): string {
  const assignee = payload.get('pull_request').get('assignee');
  const { pr, showBranches, message } = pullRequestBasics(payload, includeTitle, () => payload.get('sender').get('username').str());
  const assigneeName = assignee.truthy() ? assignee.get('login').str() : null;
  return getPullRequestEventMessage({
    ...message,
    targetBranch: showBranches && pr.has('head') ? pr.get('head').get('ref').str() : null,
    baseBranch: showBranches && pr.has('base') ? pr.get('base').get('ref').str() : null,
    assignee: assigneeName,
    assigneeUpdated: message.action === 'assigned' ? assigneeName : null,
  });
}

export const gitea: Integration = {
  urlName: 'gitea',
  displayName: 'Gitea',
  // Zulip declares no event types for Gitea, though its messages carry Gogs' event names.
  eventTypes: null,
  configOptions: [BRANCHES_OPTION],
  translate: gogsTranslator('Gitea', 'X-Gitea-Event', giteaPullRequestMessage),
};
