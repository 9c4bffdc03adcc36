import { z } from 'zod';

/** Every reply carries hhtStatus and, where useful, a message in the caller's language. */
export const failReply = z.object({
  hhtStatus: z.literal('fail'),
  hhtMsg: z.string(),
  hhtErrorCode: z.string().optional(),
  /**
   * The message's key in the contract's catalogs and its variables (hhtMsg is that message in
   * the caller's language): a console can show the same message again in another language.
   * Absent when the text came from elsewhere (another server).
   */
  hhtMsgKey: z.string().optional(),
  hhtMsgVars: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  /** 518 marks an expired, unknown or tampered session (legacy contract). */
  status: z.number().optional(),
});
export type FailReply = z.infer<typeof failReply>;

/** A fail reply for a catalog message: its text in the caller's language, with its key and variables. */
export const failWithKey = (hhtMsg: string, key: string, vars: Record<string, string | number> = {}) => ({
  hhtStatus: 'fail' as const,
  hhtMsg,
  hhtMsgKey: key,
  ...(Object.keys(vars).length ? { hhtMsgVars: vars } : {}),
});

export const okBase = z.object({
  hhtStatus: z.literal('success'),
  hhtMsg: z.string().optional(),
});

/** A success reply that carries one item in dataObject. */
export const itemReply = <T extends z.ZodType>(item: T) => okBase.extend({ dataObject: item });

/** A success reply that carries one page of a list. */
export const listReply = <T extends z.ZodType>(item: T) =>
  okBase.extend({ listObject: z.array(item), totalRecords: z.number().int().nonnegative() });

/** A success reply with nothing but the status and a message. */
export const emptyReply = okBase;

export const SESSION_EXPIRED_STATUS = 518;

export const isFail = (reply: unknown): reply is FailReply =>
  typeof reply === 'object' && reply !== null && (reply as { hhtStatus?: unknown }).hhtStatus === 'fail';
