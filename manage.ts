// The management CLI: `npm run manage -- <command> [args]`. Works on the same database the server
// uses (DATABASE_URL, or PGlite in PARLEY_DATA_DIR); with PGlite, stop the server first (one process
// owns the data directory).
import { realmHost } from './resolvers/realm/urls.ts';
import { configFromEnv, type Config } from './server/config.ts';
import { openDatabase, type Db } from './prisma/database.ts';
import type { Realm, User } from './prisma/generated/client/client.ts';
import { createRealm } from './resolvers/realm/create.ts';
import { createUser } from './resolvers/users/create.ts';
import { generateApiKey, hashPassword } from './resolvers/auth/credentials.ts';
import { syncRoleGroups } from './resolvers/groups/system.ts';
import { ParleyError } from './resolvers/errors.ts';
import { ROLES, ROLE_MEMBER } from './resolvers/users/roles.ts';
import { exactInsensitive } from './resolvers/rows.ts';
import { readFile } from 'node:fs/promises';
import { openFileStore } from './resolvers/files/storage.ts';
import { importRealm } from './resolvers/exports/import.ts';

const USAGE = `Usage: npm run manage -- <command>

  list-realms
  create-realm <subdomain|""> <name> <owner-email> [owner-password]
  create-user <email> <full name> [--realm <subdomain>] [--role 100|200|300|400|600] [--password <pw>]
  show-api-key <email> [--realm <subdomain>]
  reset-api-key <email> [--realm <subdomain>]
  set-password <email> <password> [--realm <subdomain>]
  set-role <email> <role> [--realm <subdomain>]
  import <archive.tar.gz> [--subdomain <subdomain>]   restore an organization export (GET /export/realm) as a new organization

Subdomain "" (the default) is the organization served at the root host.`;

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const value = args[i + 1];
  args.splice(i, 2);
  return value;
}

/** What every command works with: the database, and lookups that fail with a line a person can act on. */
class Cli {
  constructor(readonly db: Db, readonly config: Config) {}

  async realmOf(sub = ''): Promise<Realm> {
    const realm = await this.db.realm.findUnique({ where: { stringId: sub } });
    if (!realm) throw new Error(`No organization with subdomain '${sub}'.`);
    return realm;
  }

  async userOf(email: string, sub?: string): Promise<User> {
    const realm = await this.realmOf(sub);
    const user = await this.db.user.findFirst({ where: { realmId: realm.id, OR: [{ email: exactInsensitive(email) }, { deliveryEmail: exactInsensitive(email) }] } });
    if (!user) throw new Error(`No user '${email}' in organization '${sub ?? ''}'.`);
    return user;
  }
}

const ROLE_REFUSED = 'Role must be one of 100, 200, 300, 400, 600.';
const isRole = (role: number) => (ROLES as readonly number[]).includes(role);

const COMMANDS: Record<string, (cli: Cli, args: string[]) => Promise<void>> = {
  'list-realms': async ({ db }) => {
    for (const realm of await db.realm.findMany({ orderBy: { id: 'asc' } })) {
      const users = await db.user.count({ where: { realmId: realm.id, isActive: true } });
      console.log(`${realm.id}\t${realm.stringId || '(root)'}\t${realm.name}\t${users} active users${realm.deactivated ? '\tdeactivated' : ''}`);
    }
  },
  'create-realm': async ({ db }, args) => {
    const [sub, name, email, password] = args;
    if (sub === undefined || !name || !email) throw new Error(USAGE);
    const { realm, owner } = await createRealm(db, { stringId: sub, name, ownerEmail: email, ownerPassword: password ?? null });
    console.log(`Created organization ${realm.id} '${name}' with owner ${owner.email} (user ${owner.id}).`);
    if (!password) console.log(`The owner has a random password; their API key: ${owner.apiKey}`);
  },
  'create-user': async (cli, args) => {
    const sub = option(args, 'realm');
    const role = Number(option(args, 'role') ?? ROLE_MEMBER);
    const password = option(args, 'password');
    const [email, ...nameParts] = args;
    if (!email || !nameParts.length) throw new Error(USAGE);
    if (!isRole(role)) throw new Error(ROLE_REFUSED);
    const realm = await cli.realmOf(sub);
    const user = await createUser(cli.db, realm.id, { email, fullName: nameParts.join(' '), password: password ?? null, role, realmHost: realmHost(realm, cli.config) });
    console.log(`Created user ${user.id} ${user.email}; API key: ${user.apiKey}`);
  },
  'show-api-key': async (cli, args) => {
    const user = await cli.userOf(args[0] ?? '', option(args, 'realm'));
    console.log(user.apiKey);
  },
  'reset-api-key': async (cli, args) => {
    const sub = option(args, 'realm');
    const user = await cli.userOf(args[0] ?? '', sub);
    const apiKey = generateApiKey();
    await cli.db.user.update({ where: { id: user.id }, data: { apiKey } });
    console.log(apiKey);
  },
  'set-password': async (cli, args) => {
    const sub = option(args, 'realm');
    const [email, password] = args;
    if (!email || !password) throw new Error(USAGE);
    const user = await cli.userOf(email, sub);
    await cli.db.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(password) } });
    console.log(`Password set for ${user.email}.`);
  },
  'set-role': async (cli, args) => {
    const sub = option(args, 'realm');
    const [email, roleText] = args;
    const role = Number(roleText);
    if (!email || !isRole(role)) throw new Error(ROLE_REFUSED);
    const user = await cli.userOf(email, sub);
    await cli.db.$transaction(async (tx) => {
      await tx.user.update({ where: { id: user.id }, data: { role } });
      await syncRoleGroups(tx, user.realmId, user.id, role);
    });
    console.log(`${user.email} now has role ${role}.`);
  },
  import: async ({ db, config }, args) => {
    const sub = option(args, 'subdomain');
    const [path] = args;
    if (!path) throw new Error(USAGE);
    const store = await openFileStore(config.storage, config.dataDir);
    try {
      const result = await importRealm(db, store, await readFile(path), { stringId: sub });
      console.log(`Imported organization ${result.realm.id} '${result.realm.name}' (subdomain '${result.realm.stringId}'): ${result.users} users, ${result.channels} channels, ${result.messages} messages, ${result.files} files. Users keep their passwords and have new API keys.`);
    } finally {
      await store.close();
    }
  },
};

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command]! : undefined;
  if (!run) {
    console.error(`Unknown command '${command}'.\n\n${USAGE}`);
    return 1;
  }
  const config = configFromEnv();
  let database;
  try {
    database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  }
  try {
    await run(new Cli(database.prisma, config), args);
    return 0;
  } catch (error) {
    console.error(error instanceof ParleyError || error instanceof Error ? error.message : error);
    return 1;
  } finally {
    await database.close();
  }
}

process.exit(await main(process.argv.slice(2)));
