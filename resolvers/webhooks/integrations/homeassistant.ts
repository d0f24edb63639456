// Home Assistant's RESTful notify service (Zulip's zerver/webhooks/homeassistant): the user's
// automation posts `message`, and `topic` when its notification has a title.
import type { Integration } from '../integration.ts';

export const homeassistant: Integration = {
  urlName: 'homeassistant',
  displayName: 'HomeAssistant',
  eventTypes: null,
  translate(request) {
    const payload = request.payload();
    const content = payload.get('message').str();
    const topic = payload.has('topic') ? payload.get('topic').str() : 'homeassistant';
    return { messages: [{ topic, content }] };
  },
};
