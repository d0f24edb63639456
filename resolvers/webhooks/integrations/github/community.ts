// Messages beyond a repository's code: the webhook's setup, teams, discussions and GitHub Sponsors.
import { BadRequestError, UnsupportedWebhookEventTypeError } from '../../../errors.ts';
import type { WildValue } from '../../payload.ts';
import { type GitHubContext, render, senderName } from './context.ts';

export const GITHUB = 'GitHub';

export function ping({ payload }: GitHubContext): string {
  const sender = senderName(payload);
  return `${GITHUB} webhook has been successfully configured${sender ? ` by ${sender}` : ''}.`;
}

export function membership({ payload }: GitHubContext): string {
  const action = payload.get('action').str();
  const member = payload.get('member');
  const team = payload.get('team').get('name').str();
  const preposition = action === 'removed' ? 'from' : 'to';
  return `${senderName(payload)} ${action} [${member.get('login').str()}](${member.get('html_url').str()}) ${preposition} the ${team} team.`;
}

/** A team's `edited` event. */
export function team({ payload }: GitHubContext): string {
  const changes = payload.get('changes');
  if (changes.has('description')) {
    const description = payload.get('team').get('description').str();
    return `**${senderName(payload)}** changed the team description to:\n\n~~~ quote\n${description}\n~~~`;
  }
  if (changes.has('name')) {
    return `Team \`${changes.get('name').get('from').str()}\` was renamed to \`${payload.get('team').get('name').str()}\`.`;
  }
  if (changes.has('privacy')) return `Team visibility changed to \`${payload.get('team').get('privacy').str()}\``;
  // Something else changed: say so, so that people know to look on GitHub.
  const keys = changes.entries().map(([key]) => key).sort();
  return `Team has changes to \`${keys.join('/')}\` data.`;
}

const DISCUSSION_TEMPLATES: Record<string, string> = {
  created: '{sender} created [discussion #{discussion_number}]({url}) in {category}:\n\n~~~ quote\n### {title}\n{body}\n~~~',
  generic_action: '{sender} {action} [discussion #{discussion_number}{configured_title}]({url}).',
  deleted: '{sender} {action} discussion #{discussion_number}{configured_title}.',
  closed: '{sender} {action} [discussion #{discussion_number}{configured_title}]({url}) as {closed_reason}.',
  locked: '{sender} {action} [discussion #{discussion_number}{configured_title}]({url}{configured_title}){locked_reason}.',
  labeled: '{sender} added the {label} label to [discussion #{discussion_number}{configured_title}]({url}).',
  unlabeled: '{sender} removed the {label} label from [discussion #{discussion_number}{configured_title}]({url}).',
  category_changed: '{sender} changed the category of [discussion #{discussion_number}{configured_title}]({url}) from {old_category} to {category}.',
  transferred: '{sender} {action} discussion #{discussion_number}{configured_title} from {repository_name} to {new_repository_name} as [discussion #{new_discussion_number}]({url}).',
  answered: '{sender} marked [comment #{comment_id}]({answer_url}) as the answer:\n\n~~~ quote\n{answer_body}\n~~~',
  unanswered: '{sender} marked [comment #{comment_id}]({answer_url}) as not the answer.',
  edited_title: '{sender} edited the title of [discussion #{discussion_number}{configured_title}]({url}):\n\n~~~ quote\n### {title}\n~~~',
  edited_body: '{sender} edited [discussion #{discussion_number}{configured_title}]({url}):\n\n~~~ quote\n{body}\n~~~',
};

function discussionTemplate(payload: WildValue): string {
  let action = payload.get('action').str();
  if (['unlocked', 'pinned', 'unpinned', 'reopened'].includes(action)) action = 'generic_action';
  if (action === 'edited') action = payload.get('changes').has('body') ? 'edited_body' : 'edited_title';
  // Zulip fails on actions it has no template for; an unknown action is unsupported, not a crash.
  if (!Object.hasOwn(DISCUSSION_TEMPLATES, action)) {
    throw new UnsupportedWebhookEventTypeError(GITHUB, `discussion:${payload.get('action').str()}`);
  }
  return DISCUSSION_TEMPLATES[action]!;
}

export function discussion({ payload, includeTitle }: GitHubContext): string {
  const discussion = () => payload.get('discussion');
  // An unanswered event names the answer it takes back.
  const answer = () => payload.get(payload.get('action').str() === 'unanswered' ? 'old_answer' : 'answer');
  const title = () => discussion().get('title').str();
  return render(discussionTemplate(payload), {
    sender: () => senderName(payload),
    url: () => discussion().get('html_url').str(),
    action: () => payload.get('action').str(),
    configured_title: () => (includeTitle ? ` ${title()}` : ''),
    category: () => discussion().get('category').get('name').str(),
    title,
    body: () => discussion().get('body').str(),
    repository_name: () => payload.get('repository').get('name').str(),
    new_repository_name: () => payload.get('changes').get('new_repository').get('name').str(),
    discussion_number: () => discussion().get('number').int(),
    new_discussion_number: () => payload.get('changes').get('new_discussion').get('number').int(),
    label: () => payload.get('label').get('name').str(),
    old_category: () => payload.get('changes').get('category').get('from').get('name').str(),
    locked_reason: () => (discussion().get('active_lock_reason').truthy() ? ` as ${discussion().get('active_lock_reason').str()}` : ''),
    closed_reason: () => discussion().get('state_reason').str(),
    answer_url: () => answer().get('html_url').str(),
    answer_body: () => answer().get('body').str(),
    comment_id: () => answer().get('id').int(),
  });
}

// GitHub Sponsors (Zulip's githubsponsors integration, served by the GitHub view).

function tier(payload: WildValue): string {
  return payload.get('sponsorship').get('tier').get('name').str();
}

function priorTier(payload: WildValue): string {
  return payload.get('changes').get('tier').get('from').get('name').str();
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/** The day an `effective_date` (ISO 8601) names, as "January 05, 2020". */
function effectiveDate(payload: WildValue): string {
  const value = payload.get('effective_date');
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.str().slice(0, 10));
  const [year, month, day] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [0, 0, 0];
  if (!match || year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw new BadRequestError(`${value.varName} is not a date`);
  }
  return `${MONTHS[month - 1]} ${match[3]}, ${year}`;
}

export function sponsorshipCancelled({ payload }: GitHubContext): string {
  return `${senderName(payload)} cancelled their ${tier(payload)} subscription.`;
}

export function sponsorshipCreated({ payload }: GitHubContext): string {
  return `${senderName(payload)} subscribed for ${tier(payload)}.`;
}

export function sponsorshipEdited({ payload }: GitHubContext): string {
  const from = payload.get('changes').get('privacy_level').get('from').str();
  return `${senderName(payload)} changed who can see their sponsorship from ${from} to ${payload.get('sponsorship').get('privacy_level').str()}.`;
}

export function sponsorshipPendingCancellation({ payload }: GitHubContext): string {
  return `${senderName(payload)}'s ${tier(payload)} subscription will be cancelled on ${effectiveDate(payload)}.`;
}

export function sponsorshipPendingTierChange({ payload }: GitHubContext): string {
  return `${senderName(payload)}'s subscription will change from ${priorTier(payload)} to ${tier(payload)} on ${effectiveDate(payload)}.`;
}

export function sponsorshipTierChanged({ payload }: GitHubContext): string {
  return `${senderName(payload)} changed their subscription from ${priorTier(payload)} to ${tier(payload)}.`;
}
