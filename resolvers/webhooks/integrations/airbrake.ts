// Airbrake's error notifications, as Zulip's zerver/webhooks/airbrake renders them: one message per
// error, in a topic named after the project.
import type { Integration } from '../integration.ts';

export const airbrake: Integration = {
  urlName: 'airbrake',
  displayName: 'Airbrake',
  eventTypes: null,
  translate(request) {
    const payload = request.payload();
    const error = payload.get('error');
    const topic = error.get('project').get('name').str();
    const url = payload.get('airbrake_error_url').str();
    const content = `[${error.get('error_class').str()}](${url}): "${error.get('error_message').str()}" occurred.`;
    return { messages: [{ topic, content }] };
  },
};
