// IFTTT's "Make a web request" action, as Zulip's zerver/webhooks/ifttt reads it: the user writes
// the JSON body from IFTTT's ingredients, as for Zapier (`topic` or `subject`, and `content`).
import { BadRequestError } from '../../errors.ts';
import type { Integration } from '../integration.ts';
import { readTopicAndContent, requireTopicAndContent } from './zapier.ts';

export const ifttt: Integration = {
  urlName: 'ifttt',
  displayName: 'IFTTT',
  eventTypes: null,
  translate(request) {
    const payload = request.payload();
    let written;
    try {
      written = readTopicAndContent(payload);
    } catch (error) {
      // Zulip answers any body of the wrong shape with one sentence, unlike Zapier.
      if (error instanceof BadRequestError) throw new BadRequestError('Malformed payload');
      throw error;
    }
    return { messages: [requireTopicAndContent(written)] };
  },
};
