import { z } from 'zod';

/**
 * The largest id a row can have: ids are 32-bit integers on both engines (PostgreSQL `serial`,
 * SQLite's rowid of tables made with `withId`). A larger one names nothing, and PostgreSQL
 * would fail the query instead of finding no row, so every id parameter refuses it first.
 */
export const MAX_RECORD_ID = 2_147_483_647;

/** Whether `id` can name a row: a whole number from 1 to MAX_RECORD_ID. */
export const isRecordId = (id: number) => Number.isInteger(id) && id > 0 && id <= MAX_RECORD_ID;

/** One id from a form or JSON; anything else (0, -1, 1.5, above the range, text) is refused with `key`. */
export const recordId = (key: string) =>
  z.coerce
    .number({ error: key })
    .int({ error: key })
    .positive({ error: key })
    .max(MAX_RECORD_ID, { error: key });

/**
 * Comma-separated ids as the console's forms send lists ("3,7,12"): at least one (message
 * `emptyKey`), at most `max`, each a valid id (message `invalidKey`); repeats dropped.
 */
export const recordIdList = (emptyKey: string, max: number, invalidKey = 'common.invalidParams') =>
  z
    .string({ error: emptyKey })
    .trim()
    .transform((text) => [
      ...new Set(
        text
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean),
      ),
    ])
    .refine((items) => items.length >= 1, { error: emptyKey })
    .refine((items) => items.length <= max, { error: invalidKey })
    .refine((items) => items.every((item) => /^\d{1,10}$/.test(item) && isRecordId(Number(item))), {
      error: invalidKey,
    })
    .transform((items) => items.map(Number));
