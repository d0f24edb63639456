// Trello's webhooks (set up with Zulip's zulip_trello.py script), as Zulip's
// zerver/webhooks/trello renders them: card and board actions, one message each, under the
// board's name. Trello checks the URL with a HEAD request when the webhook is created.
import { UnsupportedWebhookEventTypeError } from '../../../errors.ts';
import type { Integration } from '../../integration.ts';
import { boardMessage, SUPPORTED_BOARD_ACTIONS } from './boards.ts';
import { cardMessage, IGNORED_CARD_ACTIONS, SUPPORTED_CARD_ACTIONS } from './cards.ts';

export const trello: Integration = {
  urlName: 'trello',
  displayName: 'Trello',
  eventTypes: null,
  answersHead: true,
  translate(request) {
    const payload = request.payload();
    const actionType = payload.get('action').get('type').str();
    let message;
    if (SUPPORTED_CARD_ACTIONS.has(actionType)) message = cardMessage(payload, actionType);
    else if (IGNORED_CARD_ACTIONS.has(actionType)) message = null;
    else if (SUPPORTED_BOARD_ACTIONS.has(actionType)) message = boardMessage(payload, actionType);
    else throw new UnsupportedWebhookEventTypeError('Trello', actionType);
    return { messages: message ? [message] : [] };
  },
};
