// Register's initial state is merged from the parts the areas declare (initial-state/parts.ts): each
// field has one owner, and a second part writing it is an error rather than a silent override that
// depends on the order modules load.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Context } from '../../schema/context.ts';
import { buildInitialState } from '../../resolvers/events/initial-state/index.ts';
import { initialStatePart } from '../../resolvers/events/initial-state/parts.ts';
import { useTestServer } from '../support/fixtures.ts';

let ctx: Context;
const t = useTestServer();

beforeAll(async () => {
  const db = t.db;
  const realm = await db.realm.findFirstOrThrow({ where: { stringId: '' } });
  ctx = { db, config: t.server.config, events: t.server.events, queues: t.server.queues, files: t.server.files, realm, user: null, clientName: 'test' };
});

const options = (fetchEventTypes: string[]) => ({
  fetchEventTypes, applyMarkdown: true, clientGravatar: false, includeSubscribers: 'false', slimPresence: false,
  presenceHistoryLimitDays: 14, capabilities: {}, narrow: [], allPublicStreams: false,
}) as Parameters<typeof buildInitialState>[2];

describe('initial state parts', () => {
  it('refuses a field that a second part writes, and only when that part runs', async () => {
    // Registered in this file's own module graph (vitest isolates test files).
    initialStatePart(['test_only_fetch_type'], async () => ({ realm_upload_quota_mib: 1 }));
    expect(await buildInitialState(ctx, null, options(['realm']))).toHaveProperty('realm_upload_quota_mib');
    await expect(buildInitialState(ctx, null, options(['realm', 'test_only_fetch_type']))).rejects.toThrow('more than one part writes realm_upload_quota_mib');
  });
});
