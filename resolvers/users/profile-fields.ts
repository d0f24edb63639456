// Custom profile fields: the organization's field definitions (administrators) and the rules each
// field type puts on a user's value. Wording follows Zulip's zerver/views/custom_profile_fields.py.
import type { Db } from '../../prisma/database.ts';
import type { CustomProfileField, Prisma } from '../../prisma/generated/client/client.ts';
import { BadRequestError } from '../errors.ts';
import { codePointLength } from '../text.ts';
import { renderForRealm } from '../messages/render.ts';
import { initialStatePart } from '../events/initial-state/parts.ts';
import { CUSTOM_PROFILE_FIELD_TYPES } from '../limits.ts';

type Reader = Db | Prisma.TransactionClient;

export const FIELD_SHORT_TEXT = 1;
export const FIELD_LONG_TEXT = 2;
export const FIELD_SELECT = 3;
export const FIELD_DATE = 4;
export const FIELD_URL = 5;
export const FIELD_USER = 6;
export const FIELD_EXTERNAL_ACCOUNT = 7;
export const FIELD_PRONOUNS = 8;
const FIELD_TYPES = [1, 2, 3, 4, 5, 6, 7, 8];

export const NAME_MAX_LENGTH = 40;
export const HINT_MAX_LENGTH = 80;
const SHORT_VALUE_MAX = 50;
const LONG_VALUE_MAX = 500;
/** At most this many fields may be shown in profile summaries. */
const MAX_SUMMARY_FIELDS = 2;

/** Zulip's built-in external account kinds: their name and hint come from here. */
const DEFAULT_EXTERNAL_ACCOUNTS: Record<string, { name: string; hint: string }> = {
  github: { name: 'GitHub', hint: 'Enter your GitHub username' },
  twitter: { name: 'Twitter', hint: 'Enter your Twitter username' },
};

/** A field as the API shows it (register, GET /realm/profile_fields, custom_profile_fields events). */
export function fieldRecord(f: CustomProfileField): Record<string, unknown> {
  return {
    id: f.id,
    name: f.name,
    type: f.fieldType,
    hint: f.hint,
    field_data: f.fieldData,
    order: f.order,
    required: f.required,
    editable_by_user: f.editableByUser,
    ...(f.displayInProfileSummary ? { display_in_profile_summary: true } : {}),
  };
}

export async function realmFields(db: Reader, realmId: number): Promise<CustomProfileField[]> {
  return db.customProfileField.findMany({ where: { realmId }, orderBy: [{ order: 'asc' }, { id: 'asc' }] });
}

export async function findField(db: Reader, realmId: number, fieldId: number): Promise<CustomProfileField> {
  const field = await db.customProfileField.findFirst({ where: { id: fieldId, realmId } });
  if (!field) throw new BadRequestError(`Field id ${fieldId} not found.`);
  return field;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** Checks `field_data` for the type and returns what is stored ("" for types without data). */
function validateFieldData(fieldType: number, fieldData: unknown): string {
  if (fieldType === FIELD_SELECT) {
    if (!isPlainObject(fieldData)) throw new BadRequestError('field_data is not a dict');
    const entries = Object.entries(fieldData);
    if (entries.length < 1) throw new BadRequestError('Field must have at least one choice.');
    const texts = new Set<string>();
    for (const [key, option] of entries) {
      if (!key.trim()) throw new BadRequestError("'value' cannot be blank.");
      if (!isPlainObject(option)) throw new BadRequestError('field_data is not a dict');
      for (const name of ['text', 'order']) {
        if (!(name in option)) throw new BadRequestError(`${name} key is missing from field_data`);
        if (typeof option[name] !== 'string') throw new BadRequestError(`field_data["${name}"] is not a string`);
        if (!(option[name] as string).trim()) throw new BadRequestError(`field_data["${name}"] cannot be blank.`);
      }
      const extra = Object.keys(option).filter((k) => k !== 'text' && k !== 'order');
      if (extra.length) throw new BadRequestError(`Unexpected arguments: ${extra.join(', ')}`);
      texts.add(option.text as string);
    }
    if (texts.size !== entries.length) throw new BadRequestError('Field must not have duplicate choices.');
    return JSON.stringify(fieldData);
  }
  if (fieldType === FIELD_EXTERNAL_ACCOUNT) {
    if (!isPlainObject(fieldData)) throw new BadRequestError('field_data is not a dict');
    if (typeof fieldData.subtype !== 'string') throw new BadRequestError('subtype key is missing from field_data');
    const extra = Object.keys(fieldData).filter((k) => k !== 'subtype' && k !== 'url_pattern');
    if (extra.length) throw new BadRequestError(`Unexpected arguments: ${extra.join(', ')}`);
    if (!(fieldData.subtype in DEFAULT_EXTERNAL_ACCOUNTS)) {
      if (fieldData.subtype !== 'custom') throw new BadRequestError('Invalid external account type');
      if (fieldData.url_pattern === undefined) throw new BadRequestError('Custom external account must define URL pattern');
      const pattern = fieldData.url_pattern;
      if (typeof pattern !== 'string' || (pattern.match(/%\(username\)s/g) ?? []).length !== 1 || !isUrl(pattern.replace('%(username)s', 'username'))) {
        throw new BadRequestError('Malformed URL pattern.');
      }
    }
    return JSON.stringify(fieldData);
  }
  return '';
}

function isDefaultExternal(fieldType: number, fieldData: unknown): fieldData is { subtype: string } {
  return fieldType === FIELD_EXTERNAL_ACCOUNT && isPlainObject(fieldData) && typeof fieldData.subtype === 'string' && fieldData.subtype in DEFAULT_EXTERNAL_ACCOUNTS;
}

function validateNameAndHint(name: string, hint: string): void {
  if (!name.trim()) throw new BadRequestError('Label cannot be blank.');
  if (codePointLength(hint) > HINT_MAX_LENGTH) throw new BadRequestError('hint is too long.');
  if (codePointLength(name) > NAME_MAX_LENGTH) throw new BadRequestError('name is too long.');
}

function validateSummary(fieldType: number, displayInProfileSummary: boolean): void {
  // Long text does not fit a summary; person pickers need client support first.
  if (displayInProfileSummary && (fieldType === FIELD_LONG_TEXT || fieldType === FIELD_USER)) {
    throw new BadRequestError('Field type not supported for display in profile summary.');
  }
}

async function checkSummaryLimit(tx: Prisma.TransactionClient, realmId: number, exceptId?: number): Promise<void> {
  const count = await tx.customProfileField.count({ where: { realmId, displayInProfileSummary: true, ...(exceptId ? { id: { not: exceptId } } : {}) } });
  if (count >= MAX_SUMMARY_FIELDS) throw new BadRequestError(`Only ${MAX_SUMMARY_FIELDS} custom profile fields can be displayed in the profile summary.`);
}

const DUPLICATE_LABEL = 'A field with that label already exists.';

async function checkLabelFree(tx: Prisma.TransactionClient, realmId: number, name: string, exceptId?: number): Promise<void> {
  const clash = await tx.customProfileField.findFirst({ where: { realmId, name, ...(exceptId ? { id: { not: exceptId } } : {}) }, select: { id: true } });
  if (clash) throw new BadRequestError(DUPLICATE_LABEL);
}

export interface NewField {
  name: string;
  hint: string;
  fieldType: number;
  fieldData: unknown;
  displayInProfileSummary: boolean;
  required: boolean;
  editableByUser: boolean;
}

export async function createField(tx: Prisma.TransactionClient, realmId: number, input: NewField): Promise<CustomProfileField> {
  if (input.displayInProfileSummary) await checkSummaryLimit(tx, realmId);
  const fieldData = validateFieldData(input.fieldType, input.fieldData ?? {});
  let { name, hint } = input;
  if (isDefaultExternal(input.fieldType, input.fieldData)) {
    ({ name, hint } = DEFAULT_EXTERNAL_ACCOUNTS[input.fieldData.subtype]!);
  } else {
    validateNameAndHint(name, hint);
  }
  if (!FIELD_TYPES.includes(input.fieldType)) throw new BadRequestError('Invalid field type.');
  validateSummary(input.fieldType, input.displayInProfileSummary);
  await checkLabelFree(tx, realmId, name);
  const field = await tx.customProfileField.create({
    data: {
      realmId, name, hint, fieldType: input.fieldType, fieldData,
      displayInProfileSummary: input.displayInProfileSummary, required: input.required, editableByUser: input.editableByUser,
    },
  });
  // As in Zulip, a new field goes last: its order is its ID.
  return tx.customProfileField.update({ where: { id: field.id }, data: { order: field.id } });
}

export interface FieldChanges {
  name?: string | null;
  hint?: string | null;
  fieldData?: unknown;
  displayInProfileSummary?: boolean | null;
  required?: boolean | null;
  editableByUser?: boolean | null;
}

export async function updateField(tx: Prisma.TransactionClient, realmId: number, fieldId: number, changes: FieldChanges): Promise<void> {
  const field = await findField(tx, realmId, fieldId);
  if (changes.displayInProfileSummary) await checkSummaryLimit(tx, realmId, field.id);
  const storedData = field.fieldData ? JSON.parse(field.fieldData) : {};
  if (isDefaultExternal(field.fieldType, storedData) && (changes.name != null || changes.hint != null)) {
    throw new BadRequestError('Default custom field cannot be updated.');
  }
  const name = changes.name ?? field.name;
  const hint = changes.hint ?? field.hint;
  const data = changes.fieldData != null ? changes.fieldData : storedData;
  const fieldData = validateFieldData(field.fieldType, data);
  if (!isDefaultExternal(field.fieldType, data)) validateNameAndHint(name, hint);
  const summary = changes.displayInProfileSummary ?? field.displayInProfileSummary;
  validateSummary(field.fieldType, summary);
  if (name !== field.name) await checkLabelFree(tx, realmId, name, field.id);
  await tx.customProfileField.update({
    where: { id: field.id },
    data: {
      name, hint, fieldData, displayInProfileSummary: summary,
      required: changes.required ?? field.required, editableByUser: changes.editableByUser ?? field.editableByUser,
    },
  });
  // A select field's options may have gone: values naming a removed option are dropped, as Zulip does.
  if (field.fieldType === FIELD_SELECT && changes.fieldData != null) {
    const options = Object.keys(changes.fieldData as Record<string, unknown>);
    await tx.customProfileFieldValue.deleteMany({ where: { fieldId: field.id, value: { notIn: options } } });
  }
}

export async function deleteField(tx: Prisma.TransactionClient, realmId: number, fieldId: number): Promise<void> {
  const field = await findField(tx, realmId, fieldId);
  await tx.customProfileFieldValue.deleteMany({ where: { fieldId: field.id } });
  await tx.customProfileField.delete({ where: { id: field.id } });
}

export async function reorderFields(tx: Prisma.TransactionClient, realmId: number, order: number[]): Promise<void> {
  const fields = await tx.customProfileField.findMany({ where: { realmId }, select: { id: true } });
  const position = new Map(order.map((id, i) => [id, i]));
  for (const f of fields) if (!position.has(f.id)) throw new BadRequestError('Invalid order mapping.');
  for (const f of fields) await tx.customProfileField.update({ where: { id: f.id }, data: { order: position.get(f.id)! } });
}

function isUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'ftp:' || url.protocol === 'ftps:') && !!url.hostname;
  } catch {
    return false;
  }
}

function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** Checks one value against its field's type; returns the stored string (JSON for user lists). */
export async function validateValue(db: Reader, realmId: number, field: CustomProfileField, value: unknown): Promise<string> {
  const name = field.name;
  const str = (max?: number): string => {
    if (typeof value !== 'string') throw new BadRequestError(`${name} is not a string`);
    if (max !== undefined && codePointLength(value) > max) throw new BadRequestError(`${name} is too long (limit: ${max} characters)`);
    return value;
  };
  switch (field.fieldType) {
    case FIELD_SHORT_TEXT:
    case FIELD_EXTERNAL_ACCOUNT:
    case FIELD_PRONOUNS:
      return str(SHORT_VALUE_MAX);
    case FIELD_LONG_TEXT:
      return str(LONG_VALUE_MAX);
    case FIELD_DATE:
      if (!isIsoDate(str())) throw new BadRequestError(`${name} is not a date`);
      return value as string;
    case FIELD_URL:
      if (!isUrl(str())) throw new BadRequestError(`${name} is not a URL`);
      return value as string;
    case FIELD_SELECT: {
      const choice = str();
      const options = field.fieldData ? (JSON.parse(field.fieldData) as Record<string, unknown>) : {};
      if (!Object.hasOwn(options, choice)) throw new BadRequestError(`'${choice}' is not a valid choice for '${name}'.`);
      return choice;
    }
    case FIELD_USER: {
      if (!Array.isArray(value)) throw new BadRequestError('User IDs is not a list');
      value.forEach((id, i) => {
        if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw new BadRequestError(`User IDs[${i}] is not an integer`);
      });
      const ids = value as number[];
      const users = await db.user.findMany({ where: { realmId, id: { in: ids.filter((id) => id > 0 && id <= 2_147_483_647) } }, select: { id: true, isActive: true, isBot: true } });
      const byId = new Map(users.map((u) => [u.id, u]));
      for (const id of ids) {
        const u = byId.get(id);
        if (!u) throw new BadRequestError(`Invalid user ID: ${id}`);
        if (!u.isActive) throw new BadRequestError(`User with ID ${id} is deactivated`);
        if (u.isBot) throw new BadRequestError(`User with ID ${id} is a bot`);
      }
      return JSON.stringify(ids);
    }
    default:
      throw new BadRequestError('Invalid field type.');
  }
}

/** Text fields carry rendered Markdown beside the value. */
export async function renderValue(db: Reader, realmId: number, field: CustomProfileField, value: string): Promise<string | null> {
  if (field.fieldType !== FIELD_SHORT_TEXT && field.fieldType !== FIELD_LONG_TEXT) return null;
  return (await renderForRealm(db, realmId, value)).html;
}

initialStatePart(['custom_profile_fields'], async (s) => ({
  custom_profile_field_types: CUSTOM_PROFILE_FIELD_TYPES,
  // Spectators cannot see profiles.
  custom_profile_fields: s.user ? (await realmFields(s.db, s.realm.id)).map(fieldRecord) : [],
}));
