// Unicode emoji names and codes, in the shape Zulip's API uses them.
//
// Zulip identifies a unicode emoji by `emoji_code`: the lowercase, dash-separated hex code points
// with every U+FE0F variation selector removed (thumbs up `1f44d`, heart `2764`, keycap hash
// `0023-20e3`). Names come from iamcal's emoji-datasource short names, which is where Zulip's own
// names started; Zulip has since curated its table (and now derives most names from CLDR), so a
// few of its best-known names are added below as aliases. Names are never taken away from the
// iamcal set, so `:smile:` stays 1f604 as in iamcal.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface UnicodeEmoji {
  name: string;
  code: string;
}

interface DatasourceEntry {
  unified: string;
  short_name: string;
  short_names: string[];
  has_img_google: boolean;
  has_img_twitter: boolean;
}

interface EmojiTables {
  nameToCode: Map<string, string>;
  codeToName: Map<string, string>;
}

// Zulip's clients display skin-tone variants nowhere and its server rejects them, so the bare
// modifiers are not emoji of their own here either.
const SKIN_TONE_CODES = new Set(['1f3fb', '1f3fc', '1f3fd', '1f3fe', '1f3ff']);

// Where Zulip's canonical name (what a typed 💩 turns into) is stable across its releases and
// differs from iamcal's; used unless iamcal gives that name to another emoji.
const ZULIP_CANONICAL: Record<string, string> = {
  '1f4a9': 'poop',
  '1f384': 'holiday_tree',
  '2797': 'division',
  '1f610': 'neutral',
  '1f615': 'oh_no',
  '1f625': 'exhausted',
  '1f641': 'frown',
  '1f643': 'upside_down',
  '1f914': 'thinking',
  '1f6e0': 'working_on_it',
};

// Names Zulip users type (and Zulip clients send in reactions) that iamcal does not have. Only
// added where iamcal does not already use the name for another emoji.
const ZULIP_ALIASES: Record<string, string[]> = {
  '1f44d': ['thumbs_up', 'like'],
  '1f44e': ['thumbs_down'],
  '1f600': ['happy'],
  '1f602': ['laughter_tears'],
  '1f604': ['big_smile'],
  '1f606': ['lol'],
  '1f610': ['neutral'],
  '1f615': ['oh_no'],
  '1f625': ['exhausted'],
  '1f62e': ['surprise'],
  '1f641': ['frown', 'slight_frown'],
  '1f642': ['slight_smile'],
  '1f643': ['upside_down'],
  '1f914': ['thinking'],
  '1f923': ['rofl'],
  '1f440': ['looking'],
  '1f44b': ['hello', 'hi'],
  '1f44f': ['applause'],
  '1f64c': ['praise'],
  '1f64f': ['folded_hands'],
  '1f91d': ['done_deal'],
  '1f384': ['holiday_tree'],
  '1f389': ['party_popper'],
  '1f947': ['gold'],
  '1f948': ['silver'],
  '1f949': ['bronze'],
  '1f4a1': ['light_bulb'],
  '1f6e0': ['working_on_it', 'tools'],
  '26a1': ['high_voltage'],
  '2705': ['check'],
  '274c': ['cross_mark'],
  '2797': ['division'],
};

let tables: EmojiTables | undefined;

function load(): EmojiTables {
  const require = createRequire(import.meta.url);
  const path = require.resolve('emoji-datasource/emoji.json');
  const data = JSON.parse(readFileSync(path, 'utf8')) as DatasourceEntry[];

  const nameToCode = new Map<string, string>();
  const codeToName = new Map<string, string>();
  const codeNames = new Map<string, string[]>();

  for (const entry of data) {
    // Zulip offers only emoji that every image set it ships can draw.
    if (!entry.has_img_google || !entry.has_img_twitter) continue;
    const code = codeFromUnified(entry.unified);
    if (SKIN_TONE_CODES.has(code)) continue;
    const names = [entry.short_name, ...entry.short_names.filter((n) => n !== entry.short_name)];
    codeNames.set(code, names);
    codeToName.set(code, entry.short_name);
    for (const name of names) nameToCode.set(name, code);
  }

  // Second pass so an alias can never shadow a real iamcal name, whatever the file order.
  const addAlias = (alias: string, code: string) => {
    if (!nameToCode.has(alias)) nameToCode.set(alias, code);
  };
  for (const [code, names] of codeNames) {
    // iamcal writes multi-word names with dashes (`woman-shrugging`), Zulip with underscores.
    for (const name of names) if (/[a-z0-9]-[a-z0-9]/.test(name)) addAlias(name.replace(/-/g, '_'), code);
  }
  for (const [code, aliases] of Object.entries(ZULIP_ALIASES)) {
    if (!codeToName.has(code)) continue;
    for (const alias of aliases) addAlias(alias, code);
  }

  // Canonical names: Zulip's where known, else iamcal's with Zulip's underscores.
  for (const code of codeToName.keys()) {
    const preferred = ZULIP_CANONICAL[code];
    if (preferred !== undefined) addAlias(preferred, code);
    const underscored = codeToName.get(code)!.replace(/([a-z0-9])-(?=[a-z0-9])/g, '$1_');
    for (const candidate of [preferred, underscored]) {
      if (candidate !== undefined && nameToCode.get(candidate) === code) {
        codeToName.set(code, candidate);
        break;
      }
    }
  }

  return { nameToCode, codeToName };
}

function getTables(): EmojiTables {
  tables ??= load();
  return tables;
}

/** `1F441-FE0F-200D-1F5E8-FE0F` → `1f441-200d-1f5e8`, Zulip's emoji_code form. */
function codeFromUnified(unified: string): string {
  return unified
    .toLowerCase()
    .split('-')
    .filter((part) => part !== 'fe0f')
    .join('-');
}

/** The emoji_code of a string of emoji characters (variation selectors dropped, as Zulip does). */
export function codeFromEmojiText(text: string): string {
  const parts: string[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0xfe0f) continue;
    parts.push(cp.toString(16).padStart(4, '0'));
  }
  return parts.join('-');
}

/**
 * Looks up a unicode emoji by any of its names. The returned name is the one asked for: Zulip
 * treats aliases as first-class (a reaction keeps the alias it was sent with).
 */
export function unicodeEmojiByName(name: string): UnicodeEmoji | undefined {
  const code = getTables().nameToCode.get(name);
  return code === undefined ? undefined : { name, code };
}

/** The canonical name of a unicode emoji_code, or undefined if Zulip would not know the code. */
export function unicodeEmojiNameForCode(code: string): string | undefined {
  return getTables().codeToName.get(code);
}

/** Where register's `server_emoji_data_url` points (Zulip serves a hashed file at this path). */
export const SERVER_EMOJI_DATA_PATH = '/static/generated/emoji/emoji_api.json';

/**
 * Zulip's emoji_api.json, which zulip-flutter fetches from `server_emoji_data_url`: every emoji
 * code with its names, the canonical one first.
 */
export function serverEmojiData(): { code_to_names: Record<string, string[]> } {
  const { nameToCode, codeToName } = getTables();
  const codeToNames: Record<string, string[]> = {};
  for (const [code, name] of codeToName) codeToNames[code] = [name];
  for (const [name, code] of nameToCode) {
    const names = codeToNames[code];
    if (names && !names.includes(name)) names.push(name);
  }
  return { code_to_names: codeToNames };
}

/**
 * Zulip's check_valid_emoji_name (zerver/lib/emoji.py), which guards custom emoji names: lowercase
 * ASCII letters, digits, `-` and `_`, not ending in `-` or `_`. Unicode names like `+1` are outside
 * it on purpose; they are checked against the table instead.
 */
export function isValidEmojiName(name: string): boolean {
  return /^[0-9a-z\-_]+(?<![\-_])$/.test(name);
}
