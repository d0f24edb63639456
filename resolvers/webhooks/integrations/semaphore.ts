// Semaphore's build notifications, as Zulip's zerver/webhooks/semaphore renders them. Semaphore
// Classic sends `event` (build or deploy) with the last commit; Semaphore 2.0 sends the pipeline and
// the revision that started it (a branch push, a pull request or a tag). 2.0 gives no URLs for
// commits, pull requests or tags: for repositories on GitHub they are built, elsewhere left out.
import type { Integration } from '../integration.ts';
import type { WildValue } from '../payload.ts';
import { pythonSplitlines } from '../python.ts';
import { getShortSha } from './git.ts';

export const semaphore: Integration = {
  urlName: 'semaphore',
  displayName: 'Semaphore',
  eventTypes: ['build', 'tag', 'unknown', 'branch', 'deploy', 'pull_request'],
  translate(request) {
    const payload = request.payload();
    const { content, project, branch, event } = payload.has('event') ? classic(payload) : semaphore2(payload);
    const topic = branch ? `${project}/${branch}` : project;
    return { eventType: event, messages: [{ topic, content }] };
  },
};

interface Notification {
  content: string;
  project: string;
  branch: string;
  event: string;
}

function classic(payload: WildValue): Notification {
  // Semaphore Classic reports only the last commit, however many a build covers.
  const branch = payload.get('branch_name').str();
  const project = payload.get('project_name').str();
  const result = payload.get('result').str();
  const event = payload.get('event').str();
  const commit = payload.get('commit');
  const commitId = commit.get('id').str();
  const commitUrl = commit.get('url').str();
  const email = commit.get('author_email').str();
  const message = summaryLine(commit.get('message').str());
  const commitLines = `* **Commit**: [${getShortSha(commitId)}: ${message}](${commitUrl})\n* **Author**: ${email}`;

  let content: string;
  if (event === 'build') {
    const buildUrl = payload.get('build_url').str();
    const buildNumber = payload.get('build_number').int();
    content = `[Build ${buildNumber}](${buildUrl}) ${result}:\n${commitLines}`;
  } else if (event === 'deploy') {
    const buildUrl = payload.get('build_html_url').str();
    const buildNumber = payload.get('build_number').int();
    const deployUrl = payload.get('html_url').str();
    const deployNumber = payload.get('number').int();
    const server = payload.get('server_name').str();
    content = `[Deploy ${deployNumber}](${deployUrl}) of [build ${buildNumber}](${buildUrl}) ${result}:\n${commitLines}\n* **Server**: ${server}`;
  } else {
    content = `${event}: ${result}`;
  }
  return { content, project, branch, event };
}

function semaphore2(payload: WildValue): Notification {
  const repoUrl = payload.get('repository').get('url').str();
  const project = payload.get('project').get('name').str();
  const organization = payload.get('organization').get('name').str();
  const revision = payload.get('revision');
  const author = revision.get('sender').get('login').str();
  const workflowId = payload.get('workflow').get('id').str();
  const pipeline = payload.get('pipeline');
  const pipelineName = pipeline.get('name').str();
  const pipelineResult = pipeline.get('result').str();
  const event = revision.get('reference_type').str();

  const github = isGithubRepo(repoUrl);
  const heading = `[${pipelineName}](https://${organization}.semaphoreci.com/workflows/${workflowId}) pipeline **${pipelineResult}**`;
  const authorLine = `* **Author**: ${github ? `[${author}](https://github.com/${author})` : author}`;

  if (event === 'branch') {
    const commitId = revision.get('commit_sha').str();
    const branch = revision.get('branch').get('name').str();
    const message = summaryLine(revision.get('commit_message').str());
    const hash = getShortSha(commitId);
    const commitLine = github ? `[(${hash})](${repoUrl}/commit/${commitId}) ${message}` : `(${hash}) ${message}`;
    return { content: `${heading}:\n* **Commit**: ${commitLine}\n* **Branch**: ${branch}\n${authorLine}`, project, branch, event };
  }
  if (event === 'pull_request') {
    const pullRequest = revision.get('pull_request');
    const branch = pullRequest.get('branch_name').str();
    const title = pullRequest.get('name').str();
    const number = pullRequest.get('number').str();
    const prLine = github ? `[${title}](${repoUrl}/pull/${number})` : `${title} (#${number})`;
    return { content: `${heading}:\n* **Pull request**: ${prLine}\n* **Branch**: ${branch}\n${authorLine}`, project, branch, event };
  }
  if (event === 'tag') {
    const tag = revision.get('tag').get('name').str();
    const tagLine = github ? `[${tag}](${repoUrl}/tree/${tag})` : tag;
    return { content: `${heading}:\n* **Tag**: ${tagLine}\n${authorLine}`, project, branch: '', event };
  }
  return { content: `${heading} for ${event} event`, project, branch: '', event };
}

/** The commit message's first line (Python's splitlines()[0]; an empty message has none). */
function summaryLine(message: string): string {
  return pythonSplitlines(message)[0] ?? '';
}

/** Whether the URL's host is github.com, as Python's urlsplit(url).hostname reads it. */
function isGithubRepo(url: string): boolean {
  const afterScheme = url.replace(/^[A-Za-z][A-Za-z0-9+.-]*:/, '');
  if (!afterScheme.startsWith('//')) return false;
  const netloc = afterScheme.slice(2).split(/[/?#]/, 1)[0]!;
  const hostPort = netloc.slice(netloc.lastIndexOf('@') + 1);
  const host = hostPort.startsWith('[') ? hostPort.slice(1, hostPort.indexOf(']')) : hostPort.split(':', 1)[0]!;
  return host.toLowerCase() === 'github.com';
}
