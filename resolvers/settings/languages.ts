// The languages a user may choose (`default_language`) and an organization may make its default:
// the codes of Zulip's translations (locale/language_options.json), with their names in English
// (what `language_name` in settings events carries).
export const LANGUAGES: Readonly<Record<string, string>> = {
  ar: 'Arabic', be: 'Belarusian', bg: 'Bulgarian', bn: 'Bengali', ca: 'Catalan', cs: 'Czech', cy: 'Welsh',
  da: 'Danish', de: 'German', el: 'Greek', en: 'English', 'en-gb': 'British English', eo: 'Esperanto',
  es: 'Spanish', fa: 'Persian', fi: 'Finnish', fr: 'French', gl: 'Galician', gu: 'Gujarati', hi: 'Hindi',
  hu: 'Hungarian', id: 'Indonesian', it: 'Italian', ja: 'Japanese', ko: 'Korean', lt: 'Lithuanian',
  lv: 'Latvian', ml: 'Malayalam', mn: 'Mongolian', nl: 'Dutch', no: 'Norwegian', pa: 'Punjabi',
  pl: 'Polish', pt: 'Portuguese', 'pt-br': 'Portuguese (Brazil)', 'pt-pt': 'Portuguese (Portugal)',
  ro: 'Romanian', ru: 'Russian', si: 'Sinhala', sk: 'Slovak', sr: 'Serbian', sv: 'Swedish', ta: 'Tamil',
  te: 'Telugu', tl: 'Tagalog', tr: 'Turkish', uk: 'Ukrainian', uz: 'Uzbek', vi: 'Vietnamese',
  'zh-hans': 'Simplified Chinese', 'zh-hant': 'Traditional Chinese',
};

export function isLanguageCode(code: string): boolean {
  return Object.hasOwn(LANGUAGES, code);
}

export function languageName(code: string): string {
  return LANGUAGES[code] ?? code;
}
