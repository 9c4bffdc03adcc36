import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST';

/** Who may make a call: anyone, or a signed-in session. Finer rules live in server policies. */
export type CallAccess = 'public' | 'session';

/**
 * One HTTP call of the console: its path, method, parameters (query for GET, form or JSON body
 * for POST) and success reply. The server validates with it, the console's client is typed by
 * it, and the OpenAPI document is generated from it.
 */
export interface CallDef<
  P extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  A extends CallAccess = CallAccess,
> {
  method: HttpMethod;
  path: string;
  summary: string;
  tag: string;
  access: A;
  params: P;
  reply: R;
  /** Replies that are not JSON (images, files) describe their media type here. */
  produces?: string;
}

export const defineCall = <P extends z.ZodType, R extends z.ZodType, A extends CallAccess>(def: CallDef<P, R, A>) =>
  def;

export type ParamsOf<C extends CallDef> = z.input<C['params']>;
export type ParsedParamsOf<C extends CallDef> = z.output<C['params']>;
export type ReplyOf<C extends CallDef> = z.infer<C['reply']>;
