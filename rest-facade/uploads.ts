// Files of a multipart request (koa-body/formidable write them to temporary files): read into
// memory for the `file` parameter type, and the temporary files removed at once.
import { readFileSync, rmSync } from 'node:fs';
import type Koa from 'koa';
import type { RawUpload } from './params.ts';

interface FormidableFile {
  filepath: string;
  originalFilename?: string | null;
  mimetype?: string | null;
}

const READ = Symbol('parley.uploads');

export function uploadedFiles(ctx: Koa.Context): RawUpload[] {
  const cached = (ctx.state as Record<symbol, RawUpload[]>)[READ];
  if (cached) return cached;
  const files = (ctx.request as { files?: Record<string, FormidableFile | FormidableFile[]> }).files ?? {};
  const uploads: RawUpload[] = [];
  for (const entry of Object.values(files)) {
    for (const file of Array.isArray(entry) ? entry : [entry]) {
      try {
        uploads.push({ fileName: file.originalFilename ?? 'upload', contentType: file.mimetype ?? null, bytes: readFileSync(file.filepath) });
      } finally {
        rmSync(file.filepath, { force: true });
      }
    }
  }
  (ctx.state as Record<symbol, RawUpload[]>)[READ] = uploads;
  return uploads;
}
