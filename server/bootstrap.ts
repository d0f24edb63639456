// First start on an empty database: create the organization and its owner.
import type { Services } from './context.ts';
import { createRealm } from '../resolvers/realm/create.ts';

export async function ensureFirstRealm({ db, config }: Services, log: (line: string) => void): Promise<void> {
  if ((await db.realm.count()) > 0) return;
  try {
    await createRealm(db, {
      stringId: '',
      name: config.realmName,
      ownerEmail: config.adminEmail,
      ownerFullName: 'Administrator',
      ownerPassword: config.adminPassword ?? null,
    });
  } catch (error) {
    // Several processes starting at once on one database: another one created it first.
    if ((await db.realm.count()) > 0) return;
    throw error;
  }
  log(`Created the organization "${config.realmName}" at ${config.externalUrl} with owner ${config.adminEmail}.`);
  if (!config.adminPassword) {
    // The generated password is never shown: the operator sets one or reads the API key instead.
    log('No PARLEY_ADMIN_PASSWORD was set: the owner has a random password. Run');
    log(`  npm run manage -- show-api-key ${config.adminEmail}`);
    log('for the API key, or set a password with `npm run manage -- set-password <email>`.');
  }
}
