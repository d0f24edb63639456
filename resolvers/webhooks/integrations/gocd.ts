// GoCD's stage notifications (the GoCD WebHook Notification plugin), as Zulip's zerver/webhooks/gocd
// renders them: a stage being built, then its result with each job's, under `pipeline / stage`.
import { BadRequestError } from '../../errors.ts';
import type { Integration } from '../integration.ts';
import type { WildValue } from '../payload.ts';
import { getShortSha } from './git.ts';

export const gocd: Integration = {
  urlName: 'gocd',
  displayName: 'Gocd',
  eventTypes: null,
  translate(request) {
    const payload = request.payload();
    // The plugin also reports agents' status: Zulip says nothing about those.
    if (payload.get('type').str() !== 'stage') return { messages: [] };

    const pipeline = payload.get('data').get('pipeline');
    const commit = commitDetails(pipeline);
    const stage = pipeline.get('stage');
    const state = stage.get('state').str().toLowerCase();
    const heading = `${pipeline.get('name').str()} / ${stage.get('name').str()}`;
    const started = `- **Started**: <time:${stage.get('create-time').str()}>`;

    let content: string;
    if (state === 'building') {
      content = `**Pipeline ${state}**: ${heading}\n- **Commit**: ${commit}\n${started}`;
    } else {
      const emoji = stage.get('result').str() === 'Passed' ? ':green_circle:' : ':red_circle:';
      const finished = `- **Finished**: <time:${stage.get('last-transition-time').str()}>`;
      content = `${emoji} **Build ${state}**: ${heading}\n- **Commit**: ${commit}\n${started}\n${finished}${jobsByResult(stage)}`;
    }
    return { messages: [{ topic: heading, content }] };
  },
};

/** The first material's first revision: the commit that started the pipeline. */
function commitDetails(pipeline: WildValue): string {
  const cause = first(pipeline.get('build-cause'));
  const git = cause.get('material').get('git-configuration');
  const url = git.get('url').str();
  const sha = getShortSha(first(cause.get('modifications')).get('revision').str());
  const branch = git.get('branch').str();
  return `[\`${sha}\`](${url}/commit/${sha}) on branch \`${branch}\``;
}

function first(list: WildValue): WildValue {
  const [head] = list.list();
  if (!head) throw new BadRequestError(`${list.varName}[0] is missing`);
  return head;
}

/** One line per result (in the order results first appear) naming its jobs. */
function jobsByResult(stage: WildValue): string {
  const byResult = new Map<string, string[]>();
  for (const job of stage.get('jobs').list()) {
    const name = job.get('name').str();
    const result = job.get('result').str();
    byResult.set(result, [...(byResult.get(result) ?? []), `\`${name}\``]);
  }
  return [...byResult].map(([result, jobs]) => `\n- **${result}**: ${jobs.join(', ')}`).join('');
}
