import type { z } from 'zod';
import type { Access, TokenNeed } from './access.js';

/** PATCH, HEAD and DELETE serve the resumable-upload (tus) endpoints only. */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'HEAD' | 'DELETE';

/**
 * One HTTP call of the console: its path, method, parameters (query for GET, form or JSON body
 * for POST) and success reply. The server validates with it, the console's client is typed by
 * it, and the OpenAPI document is generated from it.
 */
export interface CallDef<
  P extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  A extends Access = Access,
> {
  method: HttpMethod;
  path: string;
  summary: string;
  tag: string;
  /** Who may make the call (access.ts): enforced by the server before any handler runs. */
  access: A;
  /**
   * The least API-token scope that may make the call, when the rule of `tokenNeedOf` (access.ts:
   * reads `read`, panel writes `operate`, other writes `manage`, accounts never) does not fit it.
   */
  tokens?: TokenNeed;
  params: P;
  reply: R;
  /** Replies that are not JSON (images, files) describe their media type here. */
  produces?: string;
  /**
   * The form field of a file the call also takes in a multipart/form-data body (small files):
   * the server reads it into that param as a `MultipartFile`, the other fields as form fields.
   */
  multipartFile?: string;
}

/** A file of a multipart form as the server hands it to a call (`multipartFile`). */
export interface MultipartFile {
  fileName: string;
  bytes: Uint8Array;
}

export const defineCall = <P extends z.ZodType, R extends z.ZodType, const A extends Access>(
  def: CallDef<P, R, A>,
) => def;

export type ParamsOf<C extends CallDef> = z.input<C['params']>;
export type ParsedParamsOf<C extends CallDef> = z.output<C['params']>;
export type ReplyOf<C extends CallDef> = z.infer<C['reply']>;
