// Rundeck's job notifications (its "Send Webhook" notification, JSON), as Zulip's
// zerver/webhooks/rundeck renders them: one line per execution, under the job's name.
import { UnsupportedWebhookEventTypeError } from '../../errors.ts';
import type { Integration } from '../integration.ts';

const DISPLAY_NAME = 'Rundeck';

export const rundeck: Integration = {
  urlName: 'rundeck',
  displayName: DISPLAY_NAME,
  eventTypes: null,
  translate(request) {
    const payload = request.payload();
    const execution = payload.get('execution');
    const job = execution.get('job');
    const jobName = job.get('name').str();
    const jobLink = job.get('permalink').str();
    const executionId = execution.get('id').int();
    const executionLink = execution.get('href').str();
    const project = execution.get('project').str();
    const status = execution.get('status').str();

    let outcome: string;
    if (status === 'failed') outcome = 'has failed. :cross_mark:';
    else if (status === 'succeeded') outcome = 'has succeeded. :check:';
    // Rundeck reports a job exceeding its average duration as still running, told apart by the trigger.
    else if (status === 'running') {
      outcome = payload.get('trigger').str() === 'avgduration' ? 'is running long. :time_ticking:' : 'has started. :running:';
    } else if (status === 'scheduled') outcome = 'has started. :running:';
    // Zulip has no wording for other statuses (aborted, timedout) and fails on them; we decline them.
    else throw new UnsupportedWebhookEventTypeError(DISPLAY_NAME, status);

    const content = `[${jobName}](${jobLink}) execution [#${executionId}](${executionLink}) for ${project} ${outcome}`;
    return { messages: [{ topic: jobName, content }] };
  },
};
