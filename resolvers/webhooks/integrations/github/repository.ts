// Messages about a repository's code and settings: pushes, refs, releases, builds, statuses, members.
import {
  type CommitInfo, getCommitsCommentActionMessage, getPushCommitsEventMessage, getPushTagEventMessage,
  getReleaseEventMessage, getShortSha, quotedContent, rstrip,
} from '../git.ts';
import {
  branchNameFromRef, type GitHubContext, repositoryFullName, repositoryName, repositoryUrl, senderName, senderUrl,
  tagNameFromRef,
} from './context.ts';

export function pushCommits(context: GitHubContext): string {
  const { payload } = context;
  const commits: CommitInfo[] = payload.get('commits').list().map((commit) => {
    const author = commit.get('author');
    return {
      // Credit the GitHub account when the commit's e-mail belongs to one.
      name: author.opt('username').truthy() ? author.get('username').str() : author.get('name').str(),
      sha: commit.get('id').str(),
      url: commit.get('url').str(),
      message: commit.get('message').str(),
    };
  });
  return getPushCommitsEventMessage({
    userName: senderName(payload),
    compareUrl: payload.get('compare').str(),
    branchName: branchNameFromRef(payload.get('ref').str()),
    commits,
    deleted: payload.get('deleted').bool(),
    forcePush: payload.get('forced').bool(),
    repositoryName: context.includeRepositoryName ? repositoryFullName(payload) : null,
    repositoryUrl: context.includeRepositoryName ? repositoryUrl(payload) : null,
  });
}

export function pushTags({ payload }: GitHubContext): string {
  return getPushTagEventMessage(
    senderName(payload),
    tagNameFromRef(payload.get('ref').str()),
    null,
    payload.get('created').bool() ? 'pushed' : 'removed',
  );
}

/** `create` and `delete` of a branch or tag. */
export function createdOrDeletedRef(action: string) {
  return ({ payload }: GitHubContext): string =>
    `${senderName(payload)} ${action} ${payload.get('ref_type').str()} ${payload.get('ref').str()}.`;
}

export function commitComment({ payload }: GitHubContext): string {
  const comment = payload.get('comment');
  const commentUrl = comment.get('html_url').str();
  const commitUrl = commentUrl.split('#', 1)[0]!;
  return getCommitsCommentActionMessage(
    senderName(payload), `[commented](${commentUrl})`, commitUrl, comment.get('commit_id').str(), comment.get('body').str(),
  );
}

export function release({ payload }: GitHubContext): string {
  const release = payload.get('release');
  // Not every release is named; the tag names it then.
  const name = release.get('name').truthy() ? release.get('name').str() : release.get('tag_name').str();
  return getReleaseEventMessage(
    senderName(payload), payload.get('action').str(), release.get('tag_name').str(), name, release.get('html_url').str(),
  );
}

export function fork({ payload }: GitHubContext): string {
  const forkee = payload.get('forkee');
  return `${senderName(payload)} forked [${forkee.get('name').str()}](${forkee.get('html_url').str()}).`;
}

export function member({ payload }: GitHubContext): string {
  const member = payload.get('member');
  return `${senderName(payload)} ${payload.get('action').str()} [${member.get('login').str()}](${member.get('html_url').str()}) to [${repositoryName(payload)}](${repositoryUrl(payload)}).`;
}

export function publicized({ payload }: GitHubContext): string {
  return `${senderName(payload)} made the repository [${repositoryFullName(payload)}](${repositoryUrl(payload)}) public.`;
}

export function watch({ payload }: GitHubContext): string {
  return `${senderName(payload)} starred the repository [${repositoryFullName(payload)}](${repositoryUrl(payload)}).`;
}

export function star({ payload }: GitHubContext): string {
  const verb = payload.get('action').str() === 'created' ? 'starred' : 'unstarred';
  return `[${senderName(payload)}](${senderUrl(payload)}) ${verb} the repository [${repositoryFullName(payload)}](${repositoryUrl(payload)}).`;
}

export function repository({ payload }: GitHubContext): string {
  return `${senderName(payload)} ${payload.get('action').str()} the repository [${repositoryFullName(payload)}](${repositoryUrl(payload)}).`;
}

export function teamAdd({ payload }: GitHubContext): string {
  return `The repository [${repositoryFullName(payload)}](${repositoryUrl(payload)}) was added to team ${payload.get('team').get('name').str()}.`;
}

const PAGE_BUILD_STATES: Record<string, string> = {
  null: 'has yet to be built',
  building: 'is being built',
  errored: 'has failed: {}',
  built: 'has finished building',
};

export function pageBuild({ payload }: GitHubContext): string {
  const build = payload.get('build');
  const status = build.get('status').str();
  let action = Object.hasOwn(PAGE_BUILD_STATES, status) ? PAGE_BUILD_STATES[status]! : `is ${status}`;
  const error = build.get('error').get('message');
  if (error.truthy()) action = action.replace('{}', quotedContent(error.str()));
  return `GitHub Pages build, triggered by ${build.get('pusher').get('login').str()}, ${action}.`;
}

export function status({ payload }: GitHubContext): string {
  const state = payload.get('target_url').truthy()
    ? `[${payload.get('state').str()}](${payload.get('target_url').str()})`
    : payload.get('state').str();
  return `[${getShortSha(payload.get('sha').str())}](${payload.get('commit').get('html_url').str()}) changed its status to ${state}.`;
}

export function checkRun({ payload }: GitHubContext): string {
  const run = payload.get('check_run');
  const name = run.get('name').str();
  const url = run.get('html_url').str();
  const runStatus = run.get('status').str();
  const sha = run.get('head_sha').str();
  const commitUrl = `${repositoryUrl(payload)}/commit/${sha}`;
  return `Check [${name}](${url}) ${runStatus} (${run.get('conclusion').str()}). ([${getShortSha(sha)}](${commitUrl}))`;
}

export function deployment({ payload }: GitHubContext): string {
  return `${senderName(payload)} created new deployment.`;
}

export function deploymentStatus({ payload }: GitHubContext): string {
  return `Deployment changed status to ${payload.get('deployment_status').get('state').str()}.`;
}

export function wikiPages({ payload }: GitHubContext): string {
  const pages = payload.get('pages').list().map((page) =>
    `* ${page.get('action').str()} [${page.get('title').str()}](${page.get('html_url').str()})\n`);
  return `${senderName(payload)}:\n${rstrip(pages.join(''))}`;
}
