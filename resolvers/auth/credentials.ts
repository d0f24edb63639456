// API keys and passwords. Zulip's API keys are 32 random alphanumerics; passwords are hashed with
// Argon2id (the algorithm Zulip uses) through a maintained native-binding package.
import { randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

const API_KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function generateApiKey(): string {
  let key = '';
  for (let i = 0; i < 32; i++) key += API_KEY_ALPHABET[randomInt(API_KEY_ALPHABET.length)];
  return key;
}

/** Random password for accounts whose owner did not choose one: never printed. */
export function generatePassword(): string {
  return generateApiKey() + generateApiKey();
}

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function checkPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
