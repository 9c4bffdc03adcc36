import fs from 'node:fs';
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCopyCommand,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  checkKey,
  FileMissing,
  joinKey,
  type ByteSpan,
  type DirectUrlOptions,
  type FileStore,
  type PutOptions,
} from './store.js';

export interface S3Settings {
  endpoint: string;
  /** The address clients (panels, browsers) reach the store at, when it differs from `endpoint`. */
  publicEndpoint?: string;
  bucket: string;
  region: string;
  /** Both or neither: without them the SDK's own chain (AWS_* variables, instance roles) is used. */
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/** The SDK client settings for `settings` (also handed to `@tus/s3-store`, which makes its own client). */
export function s3ClientConfig(settings: S3Settings, endpoint = settings.endpoint): S3ClientConfig {
  return {
    endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.accessKeyId && settings.secretAccessKey
      ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
      : {}),
    // S3-compatible stores (MinIO, Ceph, s3rver, ...) do not all take the SDK's trailing checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

const client = (settings: S3Settings, endpoint: string) => new S3Client(s3ClientConfig(settings, endpoint));

/** S3's largest single copy; larger objects are copied in parts (UploadPartCopy). */
const COPY_OBJECT_LIMIT = 5 * 1024 ** 3;
const COPY_PART_BYTES = 512 * 1024 ** 2;

const isNotFound = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.$metadata.httpStatusCode === 404 || error.name === 'NoSuchKey' || error.name === 'NotFound');

/**
 * The store as an S3-compatible bucket (`@aws-sdk/client-s3`). Files go in as multipart uploads
 * (`@aws-sdk/lib-storage`, a few 8 MiB parts in memory at a time); clients download them through
 * presigned GET URLs (`@aws-sdk/s3-request-presigner`), which the store itself serves with Range.
 */
export class S3FileStore implements FileStore {
  readonly kind = 's3' as const;

  private constructor(
    private readonly s3: S3Client,
    /** Signs URLs with the public address; signing makes no request. */
    private readonly signing: S3Client,
    readonly bucket: string,
    private readonly prefix: string,
  ) {}

  static open(settings: S3Settings): S3FileStore {
    const s3 = client(settings, settings.endpoint);
    const signing = settings.publicEndpoint ? client(settings, settings.publicEndpoint) : s3;
    return new S3FileStore(s3, signing, settings.bucket, '');
  }

  within(prefix: string): FileStore {
    return new S3FileStore(this.s3, this.signing, this.bucket, joinKey(this.prefix, checkKey(prefix)));
  }

  /** The object's key in the bucket. */
  keyOf(key: string) {
    return joinKey(this.prefix, checkKey(key));
  }

  localPath(): undefined {
    return undefined;
  }

  async putFile(key: string, localFile: string, options: PutOptions = {}): Promise<void> {
    const upload = new Upload({
      client: this.s3,
      params: {
        Bucket: this.bucket,
        Key: this.keyOf(key),
        Body: fs.createReadStream(localFile, { highWaterMark: 1024 * 1024 }),
        ContentType: options.contentType ?? 'application/octet-stream',
      },
      partSize: 8 * 1024 * 1024,
      queueSize: 2,
    });
    await upload.done();
    if (!options.keep) await fs.promises.rm(localFile, { force: true });
  }

  async copyFrom(
    key: string,
    source: FileStore,
    sourceKey: string,
    options: PutOptions = {},
    limits = { single: COPY_OBJECT_LIMIT, part: COPY_PART_BYTES },
  ): Promise<void> {
    if (!(source instanceof S3FileStore) || source.bucket !== this.bucket)
      throw new Error('a bucket copies only within itself');
    const size = (await source.stat(sourceKey))?.size;
    if (size === undefined) throw new FileMissing(sourceKey);
    const target = { Bucket: this.bucket, Key: this.keyOf(key) };
    const copySource = `${this.bucket}/${source.keyOf(sourceKey)}`;
    const contentType = options.contentType ?? 'application/octet-stream';
    if (size <= limits.single) {
      await this.s3.send(
        new CopyObjectCommand({
          ...target,
          CopySource: copySource,
          ContentType: contentType,
          MetadataDirective: 'REPLACE',
        }),
      );
      return;
    }
    const { UploadId } = await this.s3.send(
      new CreateMultipartUploadCommand({ ...target, ContentType: contentType }),
    );
    try {
      const parts = [];
      for (let start = 0, number = 1; start < size; start += limits.part, number++) {
        const end = Math.min(start + limits.part, size) - 1;
        const copied = await this.s3.send(
          new UploadPartCopyCommand({
            ...target,
            UploadId,
            PartNumber: number,
            CopySource: copySource,
            CopySourceRange: `bytes=${start}-${end}`,
          }),
        );
        parts.push({ PartNumber: number, ETag: copied.CopyPartResult?.ETag });
      }
      await this.s3.send(
        new CompleteMultipartUploadCommand({ ...target, UploadId, MultipartUpload: { Parts: parts } }),
      );
    } catch (error) {
      await this.s3.send(new AbortMultipartUploadCommand({ ...target, UploadId }));
      throw error;
    }
  }

  async putBytes(key: string, bytes: Buffer, contentType?: string): Promise<void> {
    await this.s3.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.keyOf(key),
        Body: bytes,
        ContentLength: bytes.length,
        ContentType: contentType ?? 'application/octet-stream',
      }),
    );
  }

  async stat(key: string) {
    try {
      const head = await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async read(key: string, span?: ByteSpan): Promise<Readable> {
    try {
      const got = await this.s3.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.keyOf(key),
          ...(span ? { Range: `bytes=${span.start}-${span.end}` } : {}),
        }),
      );
      return got.Body as Readable;
    } catch (error) {
      if (isNotFound(error)) throw new FileMissing(key);
      throw error;
    }
  }

  async readBytes(key: string) {
    const body = await this.read(key).catch((error: unknown) => {
      if (error instanceof FileMissing) return undefined;
      throw error;
    });
    if (!body) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async delete(key: string) {
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
  }

  directUrl(key: string, options: DirectUrlOptions): Promise<string> {
    return getSignedUrl(this.signing, new GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }), {
      expiresIn: options.ttlSeconds,
    });
  }

  close() {
    this.s3.destroy();
    if (this.signing !== this.s3) this.signing.destroy();
  }
}
