// Gitea's webhooks (Zulip's zerver/webhooks/gitea/view.py). Gitea is a fork of Gogs and sends the
// same events, so Zulip serves it with the Gogs translation; only a pull request reads differently.
// Forgejo, a fork of Gitea, sends X-Gitea-Event too, so this URL serves it as well.
import type { Integration } from '../integration.ts';
import type { WildValue } from '../payload.ts';
import { getPullRequestEventMessage } from './git.ts';
import { BRANCHES_OPTION, gogsTranslator } from './gogs.ts';

/** Gitea's pull requests: the sender acts, the branches are `head.ref`/`base.ref`, the assignee is named. */
function giteaPullRequestMessage(payload: WildValue, includeTitle: boolean): string {
  const pr = payload.get('pull_request');
  const assignee = pr.get('assignee');
  const merged = pr.get('merged').bool();
  const userName = merged ? pr.get('merged_by').get('username').str() : payload.get('sender').get('username').str();
  const action = merged ? 'merged' : payload.get('action').str();
  const url = pr.get('html_url').str();
  const number = pr.get('number').int();
  const showBranches = action !== 'edited';
  const targetBranch = showBranches && pr.has('head') ? pr.get('head').get('ref').str() : null;
  const baseBranch = showBranches && pr.has('base') ? pr.get('base').get('ref').str() : null;
  const title = includeTitle ? pr.get('title').str() : null;
  const assigneeName = assignee.truthy() ? assignee.get('login').str() : null;
  return getPullRequestEventMessage({
    userName,
    action,
    url,
    number,
    targetBranch,
    baseBranch,
    title,
    assignee: assigneeName,
    assigneeUpdated: action === 'assigned' ? assigneeName : null,
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
