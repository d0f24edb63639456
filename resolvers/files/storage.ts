// Where files live (Zulip's zerver/lib/upload/local.py and s3.py): uploads, avatars, the
// organization's icon and logos, thumbnails and exports, by key (`files/<path_id>`,
// `avatars/<realm>/<hash>.png`, ...). A directory under PARLEY_DATA_DIR by default; an S3-compatible
// bucket when configured, so that server processes on several machines share the same files.
// The database says which files exist and who may read them; the store only keeps bytes.
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, stat, writeFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import * as Minio from 'minio';

export interface StoredFile {
  size: number;
  contentType: string;
  /** The bytes, streamed. */
  stream(): Readable;
}

export interface FileStore {
  /** Writes (or replaces) the file at `key`; nothing is visible under the key until it is complete. */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The file at `key`, or null. */
  get(key: string): Promise<StoredFile | null>;
  /** The whole file, or null. */
  read(key: string): Promise<Buffer | null>;
  /** Removes the files; missing ones are ignored. */
  delete(keys: string[]): Promise<void>;
  /** Every key under a prefix (`files/2/`). */
  list(prefix: string): Promise<string[]>;
  close(): Promise<void>;
}

export interface S3Config {
  /** `http(s)://host[:port]` of the S3-compatible service. */
  endpoint: string;
  bucket: string;
  accessKey: string;
  secretKey: string;
  region: string;
}

/** A local directory (absent: chosen at start-up from the data directory), or an S3 bucket. */
export type StorageConfig = { kind: 'local'; dir?: string } | ({ kind: 's3' } & S3Config);

/** Keys are built by the server, but a key must never leave the store's root whatever it holds. */
function checkKey(key: string): void {
  if (!key || key.startsWith('/') || key.split('/').some((part) => part === '' || part === '.' || part === '..') || key.includes('\0') || key.includes('\\')) {
    throw new Error(`invalid storage key ${JSON.stringify(key)}`);
  }
}

const CONTENT_TYPE_SUFFIX = '.content-type';

/** Files in a directory; each file's content type beside it (`<file>.content-type` is never a key). */
class LocalFileStore implements FileStore {
  readonly root: string;

  constructor(dir: string) {
    this.root = resolve(dir);
  }

  private path(key: string): string {
    checkKey(key);
    const full = join(this.root, key);
    if (!full.startsWith(this.root + sep)) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
    return full;
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    // Written beside the target and renamed: a reader sees the old file or the whole new one.
    const temporary = `${path}.${randomBytes(6).toString('hex')}.partial`;
    try {
      await writeFile(temporary, bytes);
      await writeFile(path + CONTENT_TYPE_SUFFIX, contentType);
      await rename(temporary, path);
    } finally {
      await rm(temporary, { force: true });
    }
  }

  async get(key: string): Promise<StoredFile | null> {
    const path = this.path(key);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) return null;
    const contentType = await readFile(path + CONTENT_TYPE_SUFFIX, 'utf8').catch(() => 'application/octet-stream');
    return { size: info.size, contentType, stream: () => createReadStream(path) };
  }

  async read(key: string): Promise<Buffer | null> {
    return readFile(this.path(key)).catch(() => null);
  }

  async delete(keys: string[]): Promise<void> {
    for (const key of keys) {
      const path = this.path(key);
      await rm(path, { force: true });
      await rm(path + CONTENT_TYPE_SUFFIX, { force: true });
    }
  }

  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const full = join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (!entry.name.endsWith(CONTENT_TYPE_SUFFIX) && !entry.name.endsWith('.partial')) keys.push(relative(this.root, full).split(sep).join('/'));
      }
    };
    await walk(this.root);
    return keys.filter((k) => k.startsWith(prefix)).sort();
  }

  async close(): Promise<void> {}
}

/** Objects in an S3-compatible bucket (AWS S3, MinIO, Ceph, ...), through the MinIO client. */
export class S3FileStore implements FileStore {
  private readonly client: Minio.Client;
  private readonly bucket: string;

  constructor(config: S3Config) {
    const url = new URL(config.endpoint);
    const useSSL = url.protocol === 'https:';
    this.client = new Minio.Client({
      endPoint: url.hostname,
      port: url.port ? Number(url.port) : useSSL ? 443 : 80,
      useSSL,
      accessKey: config.accessKey,
      secretKey: config.secretKey,
      region: config.region,
      // Path-style addressing works with every S3-compatible service; virtual hosts need DNS.
      pathStyle: true,
    });
    this.bucket = config.bucket;
  }

  /** Creates the bucket when it does not exist yet. */
  async ensureBucket(): Promise<void> {
    if (!(await this.client.bucketExists(this.bucket))) {
      await this.client.makeBucket(this.bucket).catch(async (error) => {
        // Another process created it meanwhile.
        if (!(await this.client.bucketExists(this.bucket))) throw error;
      });
    }
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    checkKey(key);
    await this.client.putObject(this.bucket, key, bytes, bytes.length, { 'Content-Type': contentType });
  }

  async get(key: string): Promise<StoredFile | null> {
    checkKey(key);
    const info = await this.client.statObject(this.bucket, key).catch((error) => {
      if (isNotFound(error)) return null;
      throw error;
    });
    if (!info) return null;
    const contentType = (info.metaData?.['content-type'] as string | undefined) ?? 'application/octet-stream';
    const client = this.client;
    const bucket = this.bucket;
    // The object is fetched when the caller starts reading; errors reach the stream.
    return {
      size: info.size,
      contentType,
      stream: () => {
        const out = new PassThrough();
        client.getObject(bucket, key).then((s) => s.on('error', (e) => out.destroy(e)).pipe(out), (e) => out.destroy(e));
        return out;
      },
    };
  }

  async read(key: string): Promise<Buffer | null> {
    checkKey(key);
    try {
      const stream = await this.client.getObject(this.bucket, key);
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(keys: string[]): Promise<void> {
    keys.forEach(checkKey);
    if (keys.length) await this.client.removeObjects(this.bucket, keys);
  }

  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    for await (const item of this.client.listObjectsV2(this.bucket, prefix, true)) {
      if ((item as { name?: string }).name) keys.push((item as { name: string }).name);
    }
    return keys.sort();
  }

  async close(): Promise<void> {}
}

function isNotFound(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'NotFound' || code === 'NoSuchKey';
}

/**
 * Opens the configured store. A local store without a directory lives in `<dataDir>/uploads`, or,
 * for an in-memory database, in a temporary directory removed again on close.
 */
export async function openFileStore(config: StorageConfig, dataDir: string): Promise<FileStore> {
  if (config.kind === 's3') {
    const store = new S3FileStore(config);
    await store.ensureBucket();
    return store;
  }
  if (!config.dir && dataDir.startsWith('memory://')) {
    const dir = await mkdtemp(join(tmpdir(), 'parley-files-'));
    const store = new LocalFileStore(dir);
    store.close = () => rm(dir, { recursive: true, force: true });
    return store;
  }
  const dir = config.dir ?? join(dataDir, 'uploads');
  await mkdir(dir, { recursive: true });
  return new LocalFileStore(dir);
}
