// CircleCI's webhooks, as Zulip's zerver/webhooks/circleci renders them: a job or workflow of a
// pipeline has completed (or the webhook is being tested). The pipeline names its commit by the
// version control system behind the project: GitHub and Bitbucket under `vcs`, GitLab under
// `trigger_parameters`.
import { BadRequestError } from '../../errors.ts';
import type { Integration } from '../integration.ts';
import type { WildValue } from '../payload.ts';
import { getShortSha } from './git.ts';
import { checkUrl } from './slack-incoming.ts';

const FORMATTED_STATUS = new Map([
  ['success', 'has succeeded'],
  ['failed', 'has failed'],
  ['canceled', 'was canceled'],
  ['unauthorized', 'was unauthorized'],
  ['error', 'had an error'],
]);

export const circleci: Integration = {
  urlName: 'circleci',
  displayName: 'CircleCI',
  eventTypes: ['ping', 'job-completed', 'workflow-completed'],
  translate(request) {
    const payload = request.payload();
    const type = payload.get('type').str();
    if (type === 'ping') {
      // A test delivery carries nothing but the webhook's name.
      const content = `Webhook '${payload.get('webhook').get('name').str()}' test event successful.`;
      return { eventType: type, messages: [{ topic: 'Test event', content }] };
    }
    const topic = payload.get('project').get('name').str();
    const content = completedMessage(payload);
    const pipeline = payload.get('pipeline');
    if (pipeline.has('trigger_parameters') && pipeline.get('trigger').get('type').str() !== 'gitlab') {
      throw new BadRequestError("Projects using this version control system provider aren't supported");
    }
    return { eventType: type, messages: [{ topic, content }] };
  },
};

function completedMessage(payload: WildValue): string {
  const pipelineNumber = payload.get('pipeline').get('number').int();
  const trigger = triggerSentence(payload.get('pipeline'));
  const type = payload.get('type');
  const kind = type.str();
  if (kind === 'job-completed') {
    const job = payload.get('job');
    const name = job.get('name').str();
    return `Job \`${name}\` within Pipeline #${pipelineNumber} ${formattedStatus(job)}.\n\n${trigger}`;
  }
  if (kind === 'workflow-completed') {
    const workflow = payload.get('workflow');
    const name = workflow.get('name').str();
    const url = checkUrl(workflow.get('url'));
    return `Workflow [\`${name}\`](${url}) within Pipeline #${pipelineNumber} ${formattedStatus(workflow)}.\n\n${trigger}`;
  }
  throw new BadRequestError(`Invalid ${type.varName}`);
}

/** Zulip prints Python's None for a status it has no words for. */
function formattedStatus(run: WildValue): string {
  return FORMATTED_STATUS.get(run.get('status').str()) ?? 'None';
}

/** What set the pipeline off: a commit, or (when run by hand) a branch's head or the latest tag. */
function triggerSentence(pipeline: WildValue): string {
  if (pipeline.has('vcs')) {
    const vcs = pipeline.get('vcs');
    const revision = vcs.get('revision').str();
    const commitPath = vcs.get('provider_name').str() === 'github' ? 'commit' : 'commits';
    const repositoryUrl = checkUrl(vcs.get('target_repository_url'));
    const link = `${repositoryUrl}/${commitPath}/${revision}`;
    const branch = vcs.get('branch').optStr();
    const subject = vcs.get('commit').get('subject').optStr();
    // Pipelines run by hand (GitHub and Bitbucket only) come without the commit's details.
    if (!subject) {
      if (!branch) return `Triggered on the latest tag on [${getShortSha(revision)}](${link}).`;
      return `Triggered on \`${branch}\`'s HEAD on [${getShortSha(revision)}](${link}).`;
    }
    const author = vcs.get('commit').get('author').get('name').str();
    return fullTrigger(`${getShortSha(revision)}: ${subject}`, link, branch ?? 'None', author);
  }
  const gitlab = pipeline.get('trigger_parameters').get('gitlab');
  const title = gitlab.get('commit_title').str();
  const sha = gitlab.get('checkout_sha').str();
  const author = gitlab.get('commit_author_name').str();
  const link = `${checkUrl(gitlab.get('web_url'))}/-/commit/${sha}`;
  return fullTrigger(`${getShortSha(sha)}: ${title}`, link, gitlab.get('branch').str(), author);
}

function fullTrigger(commit: string, link: string, branch: string, author: string): string {
  return `Triggered on [\`${commit}\`](${link}) on branch \`${branch}\` by ${author}.`;
}
