import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | undefined>;
  status: number;
  body: unknown;
  type: string;
}
interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
  /** Koa's middleware list (s3rver is a Koa application), composed when it starts. */
  middleware: Array<(ctx: KoaContext, next: () => Promise<void>) => Promise<void>>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

/** `@20minutes/s3rver` (CommonJS, untyped): an S3-compatible server on the loopback, storing in a folder. */
const S3rver = createRequire(import.meta.url)('@20minutes/s3rver') as S3rverClass;

const OBJECT_SUFFIX = '._S3rver_object';
const UPLOADS_DIR = '._S3rver_uploads';
/** S3's smallest part but the last (EntityTooSmall). */
const MIN_PART_BYTES = 5 * 1024 * 1024;

const s3Error = (ctx: KoaContext, status: number, code: string, message: string) => {
  ctx.status = status;
  ctx.type = 'application/xml';
  ctx.body = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;
};

/**
 * What s3rver lacks of S3's multipart uploads and `@tus/s3-store` uses: ListParts and
 * AbortMultipartUpload, and the rule that every part but the last holds at least 5 MiB
 * (checked when the upload is completed, as S3 does). Reads s3rver's own folder of parts.
 */
function multipartCompletion(bucketDir: (bucket: string) => string) {
  return async (ctx: KoaContext, next: () => Promise<void>) => {
    const uploadId = ctx.query.uploadId;
    const [, bucket] = ctx.path.split('/');
    if (!uploadId || !bucket || ctx.query.partNumber) return next();
    const dir = path.join(bucketDir(bucket), UPLOADS_DIR, uploadId);
    const parts = () =>
      fs
        .readdirSync(dir)
        .filter((name) => /^\d+$/.test(name))
        .map((name) => ({
          number: Number(name),
          size: fs.statSync(path.join(dir, name)).size,
          md5: fs.readFileSync(path.join(dir, `${name}.md5`), 'utf8').trim(),
        }))
        .sort((a, b) => a.number - b.number);
    if (!fs.existsSync(dir)) {
      if (ctx.method === 'GET' || ctx.method === 'DELETE')
        return s3Error(ctx, 404, 'NoSuchUpload', 'The specified upload does not exist.');
      return next();
    }
    if (ctx.method === 'GET') {
      ctx.type = 'application/xml';
      ctx.body =
        `<?xml version="1.0" encoding="UTF-8"?><ListPartsResult><Bucket>${bucket}</Bucket><UploadId>${uploadId}</UploadId>` +
        `<IsTruncated>false</IsTruncated>` +
        parts()
          .map(
            (p) =>
              `<Part><PartNumber>${p.number}</PartNumber><ETag>"${p.md5}"</ETag><Size>${p.size}</Size></Part>`,
          )
          .join('') +
        `</ListPartsResult>`;
      return;
    }
    if (ctx.method === 'DELETE') {
      fs.rmSync(dir, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    if (
      ctx.method === 'POST' &&
      parts()
        .slice(0, -1)
        .some((p) => p.size < MIN_PART_BYTES)
    )
      return s3Error(
        ctx,
        400,
        'EntityTooSmall',
        'Your proposed upload is smaller than the minimum allowed object size.',
      );
    return next();
  };
}

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** The settings that point a server at this bucket. */
  env: Record<string, string>;
  /** The keys of every object in the bucket, sorted (read from s3rver's folder). */
  objects(): string[];
  /** Multipart uploads begun and neither completed nor aborted. */
  pendingUploads(): string[];
  stop(): Promise<void>;
}

/** Starts s3rver on a free loopback port with a fresh folder and one bucket. */
export async function startS3(bucket = 'panelfleet-test'): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  server.middleware.unshift(multipartCompletion((name) => path.join(directory, name)));
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const bucketDir = path.join(directory, bucket);
  const walk = (dir: string): string[] =>
    fs.existsSync(dir)
      ? fs
          .readdirSync(dir, { withFileTypes: true })
          .flatMap((entry) =>
            entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
          )
      : [];
  return {
    endpoint,
    bucket,
    env: {
      FILE_STORE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      // s3rver's fixed credentials.
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'on',
    },
    objects: () =>
      walk(bucketDir)
        .filter((file) => file.endsWith(OBJECT_SUFFIX) && !file.includes(UPLOADS_DIR))
        .map((file) => path.relative(bucketDir, file).slice(0, -OBJECT_SUFFIX.length))
        .sort(),
    pendingUploads: () =>
      walk(bucketDir)
        .filter((file) => file.includes(UPLOADS_DIR))
        .map((file) => path.relative(bucketDir, file)),
    stop: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
