// Organization exports.
import type { Route } from '../route.ts';
import { snakeKeys } from '../route.ts';

const RECORD = 'id actingUserId exportTime deletedTimestamp failedTimestamp exportUrl pending exportType';

export const exportRoutes: Route[] = [
  { method: 'GET', path: '/export/realm', field: 'realmExports', select: RECORD, shape: (exports) => ({ exports: snakeKeys(exports) }) },
  { method: 'POST', path: '/export/realm', field: 'exportRealm', shape: (id) => ({ id }) },
  { method: 'DELETE', path: '/export/realm/{export_id}', field: 'deleteRealmExport' },
  {
    method: 'GET', path: '/export/realm/consents', field: 'realmExportConsents', select: 'userId consented',
    shape: (consents) => ({ export_consents: consents.map((c: { userId: number; consented: boolean }) => ({ user_id: c.userId, consented: c.consented })) }),
  },
];
