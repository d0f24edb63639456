// The rules a linkifier must satisfy before it is stored, in the order Zulip reports them
// (RealmFilter's field validators, then its clean()), with Zulip's wording.
import { BadRequestError } from '../errors.ts';
import { codePointLength } from '../text.ts';
import { MAX_INDEXED_TEXT_LENGTH } from '../limits.ts';
import {
  PatternError, compilePattern, extractGroups, fillReverseTemplate, groupNames, parseReverseTemplate,
  parseTemplate, templateVariables,
} from './engine.ts';

export interface LinkifierFields {
  pattern: string;
  urlTemplate: string;
  exampleInput: string | null;
  reverseTemplate: string | null;
  alternativeUrlTemplates: string[];
}

/** Python's repr of a group name, as in Zulip's `%(name)r`. */
const repr = (names: string[]) => `'${names[0]}'`;

/** Normalises and checks a linkifier; returns the values to store. */
export function checkLinkifier(input: LinkifierFields): LinkifierFields {
  const pattern = input.pattern.trim();
  const urlTemplate = input.urlTemplate.trim();
  if (pattern === '' || urlTemplate === '') throw new BadRequestError('This field cannot be blank.');
  if (codePointLength(pattern) > MAX_INDEXED_TEXT_LENGTH) throw new BadRequestError(`Linkifier pattern is too long (limit: ${MAX_INDEXED_TEXT_LENGTH} characters).`);
  const template = parseTemplate(urlTemplate);
  if (!template) throw new BadRequestError('Invalid URL template.');
  let re;
  try {
    re = compilePattern(pattern);
  } catch (error) {
    if (error instanceof PatternError) throw new BadRequestError(error.message);
    throw error;
  }
  const groups = groupNames(re);
  const variables = new Set(templateVariables(template));

  const missingInPattern = [...variables].filter((v) => !groups.has(v)).sort();
  if (missingInPattern.length) {
    throw new BadRequestError(`Group ${repr(missingInPattern)} in URL template is not present in linkifier pattern.`);
  }
  const missingInTemplate = [...groups].filter((g) => !variables.has(g)).sort();
  if (missingInTemplate.length) {
    throw new BadRequestError(`Group ${repr(missingInTemplate)} in linkifier pattern is not present in URL template.`);
  }

  const alternativeUrlTemplates = input.alternativeUrlTemplates.map((t) => t.trim());
  for (const alternative of alternativeUrlTemplates) {
    const parsed = alternative === '' ? null : parseTemplate(alternative);
    if (!parsed) throw new BadRequestError('Invalid URL template.');
    const unknown = templateVariables(parsed).filter((v) => !groups.has(v)).sort();
    if (unknown.length) {
      throw new BadRequestError(`Group ${repr(unknown)} in URL template is not present in linkifier pattern.`);
    }
  }

  // An empty string clears the optional texts.
  const exampleInput = input.exampleInput === null || input.exampleInput === '' ? null : input.exampleInput;
  const reverseTemplate = input.reverseTemplate === null || input.reverseTemplate === '' ? null : input.reverseTemplate;
  if (reverseTemplate !== null) {
    const parts = parseReverseTemplate(reverseTemplate);
    if (!parts) throw new BadRequestError('Invalid reverse template.');
    const unknown = parts.flatMap((p) => ('variable' in p && !groups.has(p.variable) ? [p.variable] : [])).sort();
    if (unknown.length) {
      throw new BadRequestError(`Group ${repr(unknown)} in reverse template is not present in linkifier pattern.`);
    }
    if (exampleInput === null) throw new BadRequestError('An example input is required to check the reverse template.');
    const values = extractGroups(re, exampleInput);
    if (!values) throw new BadRequestError('Example input does not match the linkifier pattern.');
    if (fillReverseTemplate(parts, values) !== exampleInput) {
      throw new BadRequestError('Reverse template does not reproduce the example input.');
    }
  }
  return { pattern, urlTemplate, exampleInput, reverseTemplate, alternativeUrlTemplates };
}
