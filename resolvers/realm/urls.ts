import type { Realm } from '../../prisma/generated/client/client.ts';
import type { Config } from '../../server/config.ts';

/** The realm's base URL: the root URL for the root realm, `<sub>.<host>` otherwise. */
export function realmUrl(realm: Pick<Realm, 'stringId'>, config: Config): string {
  if (!realm.stringId) return config.externalUrl;
  const url = new URL(config.externalUrl);
  url.hostname = `${realm.stringId}.${url.hostname}`;
  return url.toString().replace(/\/$/, '');
}

/** The realm's host name (no port): the domain of its bots' and hidden users' addresses. */
export function realmHost(realm: Pick<Realm, 'stringId'>, config: Config): string {
  return new URL(realmUrl(realm, config)).hostname;
}
