// Pivotal Tracker's v5 activity webhooks, against the messages Zulip's zerver/webhooks/pivotal/tests.py
// (PivotalV5HookTests) expects. Its v3 XML payloads are not supported.
import { describe, expect, it } from 'vitest';
import { BadRequestError, InvalidJsonError, UnsupportedWebhookEventTypeError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { pivotal } from '../../../resolvers/webhooks/integrations/pivotal.ts';
import type { WebhookOutcome } from '../../../resolvers/webhooks/integration.ts';
import { expectError, expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

const send = (body: unknown): WebhookOutcome => translateWith(pivotal, { body });

const PROJECT = '[Hard Code](https://www.pivotaltracker.com/s/projects/807213)';

/** An activity as Pivotal posts it, about one story. */
function activity(kind: string, story: { id: number; name: string; story_type?: string }, changes: unknown[]) {
  return {
    kind,
    guid: '807213_17',
    project_version: 17,
    message: 'Leo Franchi did something',
    highlight: 'did',
    changes,
    primary_resources: [{ kind: 'story', ...story, url: `http://www.pivotaltracker.com/story/show/${story.id}` }],
    project: { kind: 'project', id: 807213, name: 'Hard Code' },
    performed_by: { kind: 'person', id: 1128341, name: 'Leo Franchi', initials: 'LF' },
    occurred_at: 1389212993000,
  };
}

const YEAR = { id: 63486316, name: 'Story of the Year', story_type: 'feature' };
const TEST = { id: 63496066, name: 'Pivotal Test', story_type: 'bug' };
const storyChange = (original: object, values: object) => ({ kind: 'story', change_type: 'update', id: 63486316, original_values: original, new_values: values, name: 'Story of the Year', story_type: 'feature' });
const commentChange = (text: string) => ({ kind: 'comment', change_type: 'create', id: 57382301, new_values: { id: 57382301, text, story_id: 63486316, person_id: 1128341 } });

describe('story_update_activity', () => {
  it('reports a change of state', () => {
    const outcome = send(activity('story_update_activity', YEAR, [storyChange({ current_state: 'unstarted', accepted_at: null }, { current_state: 'accepted', accepted_at: 1389212993000 })]));
    expectMessage(outcome, '#63486316: Story of the Year',
      `Leo Franchi updated ${PROJECT}: [Story of the Year](http://www.pivotaltracker.com/story/show/63486316):\n* state changed from **unstarted** to **accepted**`,
      'story_update_activity_v5');
  });

  it('reports a rejection with its comment', () => {
    const outcome = send(activity('story_update_activity', YEAR, [commentChange('Try again next time'), storyChange({ current_state: 'delivered' }, { current_state: 'rejected' })]));
    expectMessage(outcome, '#63486316: Story of the Year',
      `Leo Franchi updated ${PROJECT}: [Story of the Year](http://www.pivotaltracker.com/story/show/63486316):\n* Comment added:\n~~~quote\nTry again next time\n~~~\n* state changed from **delivered** to **rejected**`);
  });

  it('reports a first estimate', () => {
    expectMessage(send(activity('story_update_activity', TEST, [storyChange({ estimate: null }, { estimate: 3 })])), '#63496066: Pivotal Test',
      `Leo Franchi updated ${PROJECT}: [Pivotal Test](http://www.pivotaltracker.com/story/show/63496066):\n* estimate is now **3 points**`);
  });

  it('reports a change of type, which drops the estimate', () => {
    expectMessage(send(activity('story_update_activity', TEST, [storyChange({ estimate: 3, story_type: 'feature' }, { estimate: null, story_type: 'bug' })])), '#63496066: Pivotal Test',
      `Leo Franchi updated ${PROJECT}: [Pivotal Test](http://www.pivotaltracker.com/story/show/63496066):\n* estimate changed from 3 to **0 points**\n* type changed from **feature** to **bug**`);
  });
});

describe('comment_create_activity', () => {
  it('quotes the comment', () => {
    expectMessage(send(activity('comment_create_activity', YEAR, [commentChange('A comment on the story'), storyChange({ follower_ids: [] }, { follower_ids: [1128341] })])),
      '#63486316: Story of the Year',
      `Leo Franchi added a comment to ${PROJECT}: [Story of the Year](http://www.pivotaltracker.com/story/show/63486316):\n~~~quote\nA comment on the story\n~~~`,
      'comment_create_activity_v5');
  });
});

describe('story_create_activity', () => {
  it('reports the state and the description', () => {
    const created = { kind: 'story', change_type: 'create', id: 63495662, new_values: { id: 63495662, name: 'Story that I created', story_type: 'bug', current_state: 'unscheduled', description: 'What a description' } };
    expectMessage(send(activity('story_create_activity', { id: 63495662, name: 'Story that I created', story_type: 'bug' }, [created])), '#63495662: Story that I created',
      `Leo Franchi created bug: ${PROJECT}: [Story that I created](http://www.pivotaltracker.com/story/show/63495662)\n* State is **unscheduled**\n* Description is\n\n> What a description`,
      'story_create_activity_v5');
  });
});

describe('story_move_activity', () => {
  it('reports the states it moved between', () => {
    const moved = { kind: 'story', change_type: 'update', id: 63496066, original_values: { current_state: 'unstarted', before_id: 63495972 }, new_values: { current_state: 'unscheduled', after_id: 63495972 } };
    expectMessage(send(activity('story_move_activity', TEST, [moved])), '#63496066: Pivotal Test',
      `Leo Franchi moved ${PROJECT}: [Pivotal Test](http://www.pivotaltracker.com/story/show/63496066) from **unstarted** to **unscheduled**.`,
      'story_move_activity_v5');
  });
});

describe('the integration', () => {
  it('is registered with Zulip\'s name and event types', () => {
    expect(integrationNamed('pivotal')).toBe(pivotal);
    expect(pivotal.displayName).toBe('Pivotal');
    expect(pivotal.eventTypes).toContain('story_update_activity_v5');
    expect(pivotal.eventTypes).toContain('story_update_v3');
  });

  it('writes a sparse payload as Zulip does', () => {
    const sparse = { kind: 'story_create_activity', project: { id: 0, name: '' }, primary_resources: [{ id: 0, name: '', url: '' }] };
    expectMessage(send(sparse), '#0: ', ' created None: [](https://www.pivotaltracker.com/s/projects/0): []()');
  });
});

describe('refusals', () => {
  it('ignores kinds Zulip does not know', () => {
    expectError(() => send(activity('unknown_kind', YEAR, [])), UnsupportedWebhookEventTypeError,
      "The 'unknown_kind' event isn't currently supported by the Pivotal webhook; ignoring");
  });

  it('refuses kinds it writes nothing for, and comments without one', () => {
    expectError(() => send(activity('task_create_activity', YEAR, [])), BadRequestError, 'Unable to handle Pivotal payload');
    expectError(() => send(activity('comment_create_activity', YEAR, [storyChange({}, {})])), BadRequestError, 'Unable to handle Pivotal payload');
  });

  it('refuses malformed payloads', () => {
    const story = activity('story_update_activity', YEAR, []);
    expectError(() => send({ ...story, kind: 5 }), BadRequestError, 'payload["kind"] is not a string');
    expectError(() => send({ ...story, primary_resources: [] }), BadRequestError, 'payload["primary_resources"][0] is missing');
    expectError(() => send({ ...story, primary_resources: {} }), BadRequestError, 'payload["primary_resources"] is not a list');
    expectError(() => send({ ...story, project: { id: 1 } }), BadRequestError, 'payload["project"]["name"] is missing');
    expectError(() => send({ ...story, changes: [{ kind: 'story', original_values: {} }] }), BadRequestError, 'payload["changes"][0]["new_values"] is missing');
    expectError(() => send({ ...story, changes: null }), BadRequestError, 'payload["changes"] is not a list');
    expectError(() => send({ ...story, performed_by: null }), BadRequestError, 'payload["performed_by"] is not a dict');
  });

  it('does not read version 3 XML', () => {
    const xml = '<?xml version="1.0" encoding="UTF-8"?>\n<activity><event_type>story_update</event_type></activity>';
    expect(refusalOf(() => send(xml))).toBeInstanceOf(InvalidJsonError);
  });
});
