// Uploads and attachments.
import type { Route } from '../route.ts';
import { snakeKeys } from '../route.ts';

export const uploadRoutes: Route[] = [
  {
    method: 'POST', path: '/user_uploads', field: 'uploadFile',
    // Zulip reads every file of the request, whatever its field name; `uri` is the legacy name of `url`.
    params: { files: { decode: 'file' } },
    shape: (r) => ({ uri: r.url, url: r.url, filename: r.filename }),
  },
  {
    method: 'GET', path: '/user_uploads/{realm_id_str}/{filename:path}', field: 'uploadTemporaryUrl',
    shape: (url) => ({ url }),
  },
  {
    method: 'GET', path: '/attachments', field: 'attachments',
    shape: (list) => ({ attachments: snakeKeys(list.attachments), upload_space_used: list.uploadSpaceUsed }),
  },
  { method: 'DELETE', path: '/attachments/{attachment_id}', field: 'deleteAttachment' },
];
