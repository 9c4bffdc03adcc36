import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

/** `@20minutes/s3rver` (CommonJS, untyped): an S3-compatible server on the loopback, storing in a folder. */
const S3rver = createRequire(import.meta.url)('@20minutes/s3rver') as S3rverClass;

const OBJECT_SUFFIX = '._S3rver_object';

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
        .filter((file) => file.endsWith(OBJECT_SUFFIX) && !file.includes('._S3rver_uploads'))
        .map((file) => path.relative(bucketDir, file).slice(0, -OBJECT_SUFFIX.length))
        .sort(),
    pendingUploads: () =>
      walk(bucketDir)
        .filter((file) => file.includes('._S3rver_uploads'))
        .map((file) => path.relative(bucketDir, file)),
    stop: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
