// Pivotal Tracker's activity webhooks, API version 5 (Zulip's zerver/webhooks/pivotal/view.py). Zulip
// also reads the XML of version 3; Parley does not (it answers those bodies as malformed JSON).
import { BadRequestError, UnsupportedWebhookEventTypeError } from '../../errors.ts';
import type { Integration, WebhookOutcome, WebhookRequest } from '../integration.ts';
import type { WildValue } from '../payload.ts';
import { pythonStr } from '../python.ts';
import { rstrip } from './git.ts';

const DISPLAY_NAME = 'Pivotal';

/** Kinds Pivotal sends that Zulip knows but writes nothing for (and so refuses as unhandled). */
const SILENT_KINDS = new Set([
  'task_create_activity', 'comment_delete_activity', 'task_delete_activity', 'task_update_activity',
  'story_move_from_project_activity', 'story_delete_activity', 'story_move_into_project_activity',
  'epic_update_activity', 'label_create_activity',
]);

/** A value as Python's str.format() writes it (ids are numbers, an absent story type is None). */
const text = (value: WildValue): string => pythonStr(value.raw());

/** A member when present, as Zulip's `.get(key)`; undefined (rather than a refusal) when absent. */
function member(value: WildValue, key: string): WildValue | undefined {
  return value.has(key) ? value.get(key) : undefined;
}

/** The comment a change adds, if it is one. */
function commentOf(change: WildValue): string | null {
  if (change.opt('kind').raw() !== 'comment') return null;
  const comment = member(change, 'new_values')?.opt('text');
  if (!comment) return null;
  return comment.isNull() ? null : text(comment);
}

/** `from **old** to **new**` for a field both sides of a change name. */
function changedField(before: WildValue | undefined, after: WildValue, field: string): [string, string] | null {
  if (!before?.has(field) || !after.has(field)) return null;
  return [text(before.get(field)), text(after.get(field))];
}

function storyUpdateLines(change: WildValue): string {
  const before = member(change, 'original_values');
  const after = change.get('new_values');
  let lines = '';
  const state = changedField(before, after, 'current_state');
  if (state) lines += `* state changed from **${state[0]}** to **${state[1]}**\n`;
  if (before?.has('estimate') && after.has('estimate')) {
    const old = before.get('estimate');
    const now = after.get('estimate');
    const estimate = old.isNull() ? 'is now' : `changed from ${text(old)} to`;
    lines += `* estimate ${estimate} **${now.isNull() ? '0' : text(now)} points**\n`;
  }
  const type = changedField(before, after, 'story_type');
  if (type) lines += `* type changed from **${type[0]}** to **${type[1]}**\n`;
  const comment = commentOf(change);
  if (comment !== null) lines += `* Comment added:\n~~~quote\n${comment}\n~~~\n`;
  return lines;
}

export const pivotal: Integration = {
  urlName: 'pivotal',
  displayName: DISPLAY_NAME,
  eventTypes: [
    'story_update_v3', 'note_create_v3', 'story_create_v3',
    'story_move_activity_v5', 'story_create_activity_v5', 'story_update_activity_v5', 'comment_create_activity_v5',
  ],
  translate(request: WebhookRequest): WebhookOutcome {
    const payload = request.payload();
    const kind = payload.get('kind').str();
    const project = payload.get('project');
    const story = payload.get('primary_resources').list()[0];
    if (!story) throw new BadRequestError('payload["primary_resources"][0] is missing');
    const storyUrl = text(story.get('url'));
    const storyType = text(story.opt('story_type'));
    const storyId = text(story.get('id'));
    const storyName = text(story.get('name'));
    const performer = member(payload, 'performed_by')?.opt('name');
    const performedBy = performer && performer.value !== undefined ? text(performer) : '';
    const storyInfo = `[${text(project.get('name'))}](https://www.pivotaltracker.com/s/projects/${text(project.get('id'))}): [${storyName}](${storyUrl})`;
    const changes = member(payload, 'changes')?.list() ?? [];

    let content = '';
    if (kind === 'story_update_activity') {
      content = `${performedBy} updated ${storyInfo}:\n` + changes.map(storyUpdateLines).join('');
    } else if (kind === 'comment_create_activity') {
      for (const comment of changes.map(commentOf)) {
        if (comment !== null) content += `${performedBy} added a comment to ${storyInfo}:\n~~~quote\n${comment}\n~~~`;
      }
    } else if (kind === 'story_create_activity') {
      content = `${performedBy} created ${storyType}: ${storyInfo}\n`;
      for (const change of changes) {
        const values = member(change, 'new_values');
        if (values?.has('current_state')) content += `* State is **${text(values.get('current_state'))}**\n`;
        if (values?.has('description')) content += `* Description is\n\n> ${text(values.get('description'))}`;
      }
    } else if (kind === 'story_move_activity') {
      content = `${performedBy} moved ${storyInfo}`;
      for (const change of changes) {
        const state = changedField(member(change, 'original_values'), change.get('new_values'), 'current_state');
        if (state) content += ` from **${state[0]}** to **${state[1]}**.`;
      }
    } else if (!SILENT_KINDS.has(kind)) {
      throw new UnsupportedWebhookEventTypeError(DISPLAY_NAME, kind);
    }
    if (!content) throw new BadRequestError('Unable to handle Pivotal payload');
    // Zulip's lines each end with a newline; the sent message drops the last one.
    return { eventType: `${kind}_v5`, messages: [{ topic: `#${storyId}: ${storyName}`, content: rstrip(content) }] };
  },
};
