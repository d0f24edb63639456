// The preamble of a test file, written once: `useTestServer` starts a server for the file (or the
// describe block it is called in) and closes it after, `useTeam` makes the file's users, `useBot`
// its bots, all through the public API (factories.ts).
//
//   const t = useTestServer({ scheduledPollMs: 0 });
//   const { alice, bob } = useTeam(t, ['alice', 'bob']);
//   const bot = useBot(t, alice, { fullName: 'Alice Bot' });
//
// What they return exists at once and is filled in by their beforeAll hooks, so files declare
// these at module level as constants and use them in tests and in later hooks (vitest runs a
// block's beforeAll hooks in the order they were registered). Read no member before then.
// afterAll hooks unwind in reverse: a fake service the server talks to (a mail sink, a webhook
// receiver) registers its afterAll before useTestServer, so that the server closes first.
import { afterAll, beforeAll } from 'vitest';
import type { Config } from '../../server/config.ts';
import type { Db } from '../../prisma/database.ts';
import { ApiClient, type Credentials } from './client.ts';
import { CAST, type CastName, type MadeUser, makeBot, makeOtherRealmOwner, makeUser } from './factories.ts';
import { startTestServer, type TestServer } from './server.ts';

export interface ServerFixture extends TestServer {
  /** The server's Prisma client: for reading what the API does not show, and for states it cannot produce. */
  readonly db: Db;
  /** A client signed in as the organization's owner. */
  readonly ownerClient: ApiClient;
  /** The organization's ID. */
  readonly realmId: number;
}

// Setting up is not what a file tests: its hooks may take as long as a busy machine makes them.
const SETUP_TIMEOUT_MS = 180_000;

type Overrides = Partial<Config> | (() => Partial<Config> | Promise<Partial<Config>>);

/**
 * A server for the enclosing file or describe block, started in beforeAll and closed in afterAll,
 * which runs even when a beforeAll fails (startTestServer drops the database and the Redis keys of
 * a server that did not start). `overrides` may be a function, for settings only known once
 * earlier hooks have run, such as a mail sink's address.
 */
export function useTestServer(overrides: Overrides = {}): ServerFixture {
  const ownerClient = new ApiClient('');
  const fixture = {
    ownerClient,
    get db(): Db {
      return this.server.database.prisma;
    },
  } as ServerFixture;
  let started: TestServer | undefined;
  beforeAll(async () => {
    started = await startTestServer(typeof overrides === 'function' ? await overrides() : overrides);
    const { realmId } = await started.server.database.prisma.user.findUniqueOrThrow({ where: { id: started.owner.userId }, select: { realmId: true } });
    Object.assign(fixture, started, { realmId });
    // ApiClient's fields are read-only to tests; the fixture fills them in this once.
    Object.assign(ownerClient, { baseUrl: started.baseUrl, credentials: started.owner });
  }, SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await started?.close();
  }, SETUP_TIMEOUT_MS);
  return fixture;
}

export interface UserSpec {
  fullName?: string;
  role?: number;
}

/**
 * The users of the file, made in beforeAll in the order named (user IDs follow it): cast names
 * (factories.ts CAST) as they are there unless `specs` says otherwise; other names need a spec.
 */
export function useTeam<N extends string>(
  t: TestServer,
  names: readonly N[],
  ...[specs]: Exclude<N, CastName> extends never ? [specs?: Partial<Record<N, UserSpec>>] : [specs: Partial<Record<N, UserSpec>> & Record<Exclude<N, CastName>, UserSpec>]
): Record<N, MadeUser> {
  const team = Object.fromEntries(names.map((name) => [name, {}])) as Record<N, MadeUser>;
  beforeAll(async () => {
    for (const name of names) {
      const spec = (specs as Partial<Record<N, UserSpec>> | undefined)?.[name] ?? (CAST as Record<string, UserSpec>)[name]!;
      Object.assign(team[name], await makeUser(t, spec));
    }
  }, SETUP_TIMEOUT_MS);
  return team;
}

/** A bot of `owner` (POST /bots, see makeBot), made in beforeAll; `() => t.owner` for the organization's owner's. */
export function useBot(t: TestServer, owner: Credentials | (() => Credentials), options: Parameters<typeof makeBot>[2]): MadeUser {
  const bot = {} as MadeUser;
  beforeAll(async () => {
    Object.assign(bot, await makeBot(t, typeof owner === 'function' ? owner() : owner, options));
  }, SETUP_TIMEOUT_MS);
  return bot;
}

/** The owner of a second organization (see makeOtherRealmOwner), made in beforeAll. */
export function useOtherRealmOwner(t: TestServer, subdomain: string): MadeUser & { host: string } {
  const boss = {} as MadeUser & { host: string };
  beforeAll(async () => {
    Object.assign(boss, await makeOtherRealmOwner(t, subdomain));
  }, SETUP_TIMEOUT_MS);
  return boss;
}
