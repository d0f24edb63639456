// A user's custom profile field values: set by the user (fields editable by users) or by an
// administrator (any field). Each change becomes one `realm_user update` event after commit.
import type { Prisma, User } from '../../prisma/generated/client/client.ts';
import { BadRequestError } from '../errors.ts';
import { isAdmin } from './roles.ts';
import { findField, renderValue, validateValue } from './profile-fields.ts';

export interface ProfileDataItem {
  id: number;
  value: unknown;
}

/** One changed value, as the event's `custom_profile_field` shows it (value null when removed). */
export interface ProfileChange {
  id: number;
  value: string | null;
  rendered_value?: string;
}

const NOT_EDITABLE = 'You are not allowed to change this field. Contact an administrator to update it.';

/** Checks the list's shape (REST sends it as JSON). */
export function parseProfileData(raw: unknown, name = 'profile_data'): ProfileDataItem[] {
  if (!Array.isArray(raw)) throw new BadRequestError(`${name} is not a list`);
  return raw.map((item, i) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw new BadRequestError(`${name}[${i}] is not a dict`);
    const entry = item as Record<string, unknown>;
    if (!('id' in entry)) throw new BadRequestError(`id key is missing from ${name}[${i}]`);
    if (!('value' in entry)) throw new BadRequestError(`value key is missing from ${name}[${i}]`);
    if (typeof entry.id !== 'number' || !Number.isSafeInteger(entry.id) || Math.abs(entry.id) > 2_147_483_647) throw new BadRequestError(`${name}[${i}]["id"] is not an integer`);
    return { id: entry.id, value: entry.value };
  });
}

function isEmpty(value: unknown): boolean {
  return value == null || value === '' || (Array.isArray(value) && value.length === 0);
}

/** Applies the items to `target` inside the transaction; returns what changed. */
export async function applyProfileData(
  tx: Prisma.TransactionClient, actor: Pick<User, 'role'>, target: Pick<User, 'id' | 'realmId'>, items: ProfileDataItem[],
): Promise<ProfileChange[]> {
  const changes: ProfileChange[] = [];
  for (const item of items) {
    const field = await findField(tx, target.realmId, item.id);
    if (!isAdmin(actor) && !field.editableByUser) throw new BadRequestError(NOT_EDITABLE);
    const existing = await tx.customProfileFieldValue.findUnique({ where: { userId_fieldId: { userId: target.id, fieldId: field.id } } });
    // An empty value (null, "", []) removes it.
    if (isEmpty(item.value)) {
      if (existing) {
        await tx.customProfileFieldValue.delete({ where: { userId_fieldId: { userId: target.id, fieldId: field.id } } });
        changes.push({ id: field.id, value: null });
      }
      continue;
    }
    const value = await validateValue(tx, target.realmId, field, item.value);
    if (existing && existing.value === value) continue;
    const rendered = await renderValue(tx, target.realmId, field, value);
    await tx.customProfileFieldValue.upsert({
      where: { userId_fieldId: { userId: target.id, fieldId: field.id } },
      create: { userId: target.id, fieldId: field.id, value, renderedValue: rendered },
      update: { value, renderedValue: rendered },
    });
    changes.push(rendered == null ? { id: field.id, value } : { id: field.id, value, rendered_value: rendered });
  }
  return changes;
}

