// The first organization and its owner's login: created on the first start on an empty database;
// on later starts PARLEY_ADMIN_PASSWORD, when set, is (again) that owner's password, so the README's
// `PARLEY_ADMIN_PASSWORD=… npm start` works whether or not the database is new.
import type { Services } from './context.ts';
import { createRealm } from '../resolvers/realm/create.ts';
import { checkPassword, hashPassword } from '../resolvers/auth/credentials.ts';
import { exactInsensitive } from '../resolvers/rows.ts';

export async function ensureFirstRealm(services: Services, log: (line: string) => void): Promise<void> {
  const { db, config } = services;
  if ((await db.realm.count()) > 0) {
    await applyAdminPassword(services, log);
    return;
  }
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
  log(`created the organization "${config.realmName}" at ${config.externalUrl} with owner ${config.adminEmail}`);
  if (config.adminPassword) {
    log(`log in as ${config.adminEmail} with the password in PARLEY_ADMIN_PASSWORD (see README: Logging in)`);
  } else {
    // The generated password is never shown: the operator sets one or reads the API key instead.
    log(`the owner has a random password; to log in, stop the server (Ctrl-C) and either`);
    log(`  npm run manage -- show-api-key ${config.adminEmail}              (prints the API key), or`);
    log(`  npm run manage -- set-password ${config.adminEmail} <password>   (then log in with it),`);
    log(`or start it with PARLEY_ADMIN_PASSWORD='<password>' npm start`);
  }
}

/** Sets the owner's password from PARLEY_ADMIN_PASSWORD on a start that did not create the organization. */
async function applyAdminPassword({ db, config }: Services, log: (line: string) => void): Promise<void> {
  const password = config.adminPassword;
  if (!password) return;
  const realm = await db.realm.findUnique({ where: { stringId: '' }, select: { id: true } });
  const user = realm && (await db.user.findFirst({
    where: { realmId: realm.id, OR: [{ email: exactInsensitive(config.adminEmail) }, { deliveryEmail: exactInsensitive(config.adminEmail) }] },
    select: { id: true, email: true, passwordHash: true },
  }));
  if (!user) {
    log(`PARLEY_ADMIN_PASSWORD ignored: the root organization has no user ${config.adminEmail} (PARLEY_ADMIN_EMAIL)`);
    return;
  }
  if (await checkPassword(user.passwordHash, password)) {
    log(`log in as ${user.email} with the password in PARLEY_ADMIN_PASSWORD`);
    return;
  }
  await db.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(password) } });
  log(`PARLEY_ADMIN_PASSWORD is now the password of ${user.email}`);
}
