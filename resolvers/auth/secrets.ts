// Server-wide secrets (signing keys), made on first use and kept in the database, so every process
// of a deployment signs and checks with the same key and a restart invalidates nothing.
import { randomBytes } from 'node:crypto';
import type { Db } from '../../prisma/database.ts';

const cache = new WeakMap<Db, Map<string, Promise<Buffer>>>();

async function load(db: Db, name: string): Promise<Buffer> {
  // Two processes may make it at once: the first insert wins and both read the winner.
  await db.serverSecret.createMany({ data: [{ name, value: randomBytes(32).toString('base64') }], skipDuplicates: true });
  const row = await db.serverSecret.findUniqueOrThrow({ where: { name } });
  return Buffer.from(row.value, 'base64');
}

export function serverSecret(db: Db, name: string): Promise<Buffer> {
  let byName = cache.get(db);
  if (!byName) cache.set(db, (byName = new Map()));
  let secret = byName.get(name);
  if (!secret) {
    secret = load(db, name);
    byName.set(name, secret);
    secret.catch(() => byName!.delete(name));
  }
  return secret;
}
