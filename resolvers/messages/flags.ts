// Zulip's per-user message flags and the UserMessage columns behind them.
export const FLAG_COLUMNS = {
  read: 'read',
  starred: 'starred',
  collapsed: 'collapsed',
  mentioned: 'mentioned',
  stream_wildcard_mentioned: 'streamWildcardMentioned',
  topic_wildcard_mentioned: 'topicWildcardMentioned',
  has_alert_word: 'hasAlertWord',
  historical: 'historical',
} as const;

export type FlagName = keyof typeof FLAG_COLUMNS;

/** Flags a client may change with POST /messages/flags; the others follow from the message. */
export const EDITABLE_FLAGS = new Set<FlagName>(['read', 'starred', 'collapsed']);

export interface UserMessageFlags {
  read: boolean; starred: boolean; collapsed: boolean; mentioned: boolean;
  streamWildcardMentioned: boolean; topicWildcardMentioned: boolean; hasAlertWord: boolean; historical: boolean;
}

// Read for every message of every page: the pairs are listed once.
const FLAG_ENTRIES = Object.entries(FLAG_COLUMNS) as [FlagName, keyof UserMessageFlags][];

/** A flag left out counts as unset (a new message's row has no starred or collapsed to read). */
export function flagList(um: Partial<UserMessageFlags> | null | undefined): string[] {
  // A message the viewer never received (public channel history) reads as read and historical.
  if (!um) return ['read', 'historical'];
  const flags: string[] = [];
  for (const [name, column] of FLAG_ENTRIES) if (um[column]) flags.push(name);
  // Deprecated union of the two wildcard flags (feature level 224), still read by older clients.
  if (um.streamWildcardMentioned || um.topicWildcardMentioned) flags.push('wildcard_mentioned');
  return flags;
}
