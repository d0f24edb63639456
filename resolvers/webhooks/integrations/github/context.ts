// What every GitHub message reads: the payload, the URL's options, and the payload's common parts.
import { BadRequestError } from '../../../errors.ts';
import type { WildValue } from '../../payload.ts';

export interface GitHubContext {
  payload: WildValue;
  /** The URL fixes the topic, so the message must name the PR or issue the topic would have. */
  includeTitle: boolean;
  /** The URL's include_repository_name: push messages name the repository. */
  includeRepositoryName: boolean;
}


/** Python's len() of a dict or list. */
export function size(value: WildValue): number {
  const raw = value.raw() as unknown;
  if (Array.isArray(raw)) return raw.length;
  if (raw !== null && typeof raw === 'object') return Object.keys(raw).length;
  throw new BadRequestError(`${value.varName} is not a dict`);
}

export function senderName(payload: WildValue): string {
  return payload.get('sender').get('login').str();
}

export function senderUrl(payload: WildValue): string {
  return payload.get('sender').get('html_url').str();
}

export function repositoryName(payload: WildValue): string {
  return payload.get('repository').get('name').str();
}

export function repositoryFullName(payload: WildValue): string {
  return payload.get('repository').get('full_name').str();
}

export function repositoryUrl(payload: WildValue): string {
  return payload.get('repository').get('html_url').str();
}

export function branchNameFromRef(ref: string): string {
  return ref.replace(/^refs\/heads\//, '');
}

export function tagNameFromRef(ref: string): string {
  return ref.replace(/^refs\/tags\//, '');
}

/** GitHub sends comments on a PR's conversation as `issue_comment`, on an issue with a `pull_request` key. */
export function isPullRequestComment(payload: WildValue): boolean {
  return payload.get('issue').has('pull_request');
}

/** Replaces each `{name}` with its value, computed only when the template uses it (as Zulip's format_map). */
export function render(template: string, values: Record<string, () => string | number>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]!()));
}
