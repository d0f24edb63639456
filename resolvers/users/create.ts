// Creating accounts: the management CLI, first start, and POST /users (administrators) all come here.
import type { Db } from '../../prisma/database.ts';
import type { Prisma, User } from '../../prisma/generated/client/client.ts';
import { BadRequestError } from '../errors.ts';
import { generateApiKey, generatePassword, hashPassword } from '../auth/credentials.ts';
import { syncRoleGroups } from '../groups/system.ts';
import { ROLES, ROLE_MEMBER } from './roles.ts';
import { codePointLength, exactInsensitive } from '../text.ts';

// Deliberately loose: Zulip accepts anything Django's EmailValidator does; this catches typos.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$|^[^\s@]+@localhost$|^[^\s@]+@[^\s@.]+\.local$/i;

export const MAX_NAME_LENGTH = 100;

export interface NewUser {
  email: string;
  fullName: string;
  password?: string | null;
  role?: number;
  isBot?: boolean;
  botType?: number | null;
  botOwnerId?: number | null;
}

export function validateEmail(email: string): string {
  const trimmed = email.trim();
  if (!EMAIL_PATTERN.test(trimmed)) throw new BadRequestError(`Invalid address: ${email}`);
  return trimmed;
}

export function validateFullName(fullName: string): string {
  const name = fullName.trim();
  if (!name) throw new BadRequestError('Name too short!');
  if (codePointLength(name) > MAX_NAME_LENGTH) throw new BadRequestError('Name too long!');
  // Zulip's rule: characters that would break mention syntax are not allowed in names.
  if (/[\u0000-\u001f*`\\>"@]/.test(name)) throw new BadRequestError('Invalid characters in name!');
  return name;
}

/** Creates a user inside an open transaction; the caller publishes events after commit. */
export async function createUserInTx(tx: Prisma.TransactionClient, realmId: number, input: NewUser): Promise<User> {
  const email = validateEmail(input.email);
  const fullName = validateFullName(input.fullName);
  const role = input.role ?? ROLE_MEMBER;
  if (!(ROLES as readonly number[]).includes(role)) throw new BadRequestError('Invalid role');
  const existing = await tx.user.findFirst({ where: { realmId, email: exactInsensitive(email) } });
  if (existing) throw new BadRequestError(`Email '${email}' already in use`);
  const user = await tx.user.create({
    data: {
      realmId,
      email,
      deliveryEmail: email,
      fullName,
      role,
      isBot: input.isBot ?? false,
      botType: input.botType ?? null,
      botOwnerId: input.botOwnerId ?? null,
      apiKey: generateApiKey(),
      passwordHash: input.isBot ? null : await hashPassword(input.password || generatePassword()),
    },
  });
  await syncRoleGroups(tx, realmId, user.id, role);
  const defaults = await tx.defaultChannel.findMany({ where: { realmId }, select: { channelId: true } });
  if (defaults.length) {
    await tx.subscription.createMany({
      data: defaults.map((d, i) => ({ userId: user.id, channelId: d.channelId, color: pickColor(i) })),
      skipDuplicates: true,
    });
  }
  return user;
}

export async function createUser(db: Db, realmId: number, input: NewUser): Promise<User> {
  return db.$transaction((tx) => createUserInTx(tx, realmId, input));
}

// Zulip's stream color palette, assigned round-robin to a user's new subscriptions.
export const CHANNEL_COLORS = [
  '#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5',
  '#f5ce6e', '#c2726a', '#94c849', '#bd86e5', '#ee7e4a', '#a6dcbf', '#95a5fd', '#53a063',
  '#9987e1', '#e4523d', '#c2c2c2', '#4f8de4', '#c6a8ad', '#e7cc4d', '#c8bebf', '#a47462',
];

export function pickColor(index: number): string {
  return CHANNEL_COLORS[index % CHANNEL_COLORS.length]!;
}
