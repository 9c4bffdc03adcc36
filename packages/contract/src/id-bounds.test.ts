import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allCalls } from './calls/index.js';
import { MAX_RECORD_ID } from './ids.js';

/**
 * Every parameter that names rows by a numeric id refuses an id above the database's integer
 * range (2,147,483,647) in the call's own validation: PostgreSQL would otherwise fail the query
 * ("value out of range for type integer") and the caller would get a 500 for a typing mistake.
 */

/** Parameters named as ids: `id`, `ids`, `…Id`, `…Ids`, and the spec's odd ones (label ids in `tags`, a salesperson's id in `saleName`). */
const ID_NAME = /^(ids?|.*Ids?)$/;
const ODD_ID_NAMES = new Set(['tags', 'saleName']);
/** Named like ids but not rows of ours: an OIDC client id is the identity provider's text. */
const NOT_ROW_IDS = new Set(['clientId']);

const propertiesOf = (schema: z.ZodType) =>
  Object.keys(
    (z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: object }).properties ??
      {},
  );

/** Whether `value` for `name` alone draws an issue at `name` (the other parameters may draw their own). */
function refused(schema: z.ZodType, name: string, value: unknown): boolean {
  const result = schema.safeParse({ [name]: value });
  return !result.success && result.error.issues.some((issue) => issue.path[0] === name);
}

interface IdParameter {
  path: string;
  name: string;
  schema: z.ZodType;
  /** How the parameter takes a small id: a string ("1" from a form) or a JSON number. */
  sample: string | number;
  list: boolean;
}

function idParameters(): IdParameter[] {
  const found: IdParameter[] = [];
  for (const call of allCalls) {
    for (const name of propertiesOf(call.params)) {
      if ((!ID_NAME.test(name) && !ODD_ID_NAMES.has(name)) || NOT_ROW_IDS.has(name)) continue;
      const sample = [`1`, 1].find((value) => !refused(call.params, name, value));
      // Not a numeric id (a UUID, an upload's hex id, a serial number).
      if (sample === undefined) continue;
      const list = typeof sample === 'string' && !refused(call.params, name, '1,2');
      found.push({ path: `${call.method} ${call.path}`, name, schema: call.params, sample, list });
    }
  }
  return found;
}

describe('id parameters', () => {
  const parameters = idParameters();

  it('are found in the contract (the check below has something to check)', () => {
    expect(parameters.length).toBeGreaterThan(60);
    expect(parameters.map((p) => `${p.path} ${p.name}`)).toContain('POST /sendData/sendSetting deviceIds');
  });

  it('refuse an id above the integer range, alone and in a list, and take the largest one', () => {
    const above = MAX_RECORD_ID + 1;
    const unbounded = parameters.filter((p) => {
      const big = typeof p.sample === 'number' ? above : String(above);
      return !refused(p.schema, p.name, big) || (p.list && !refused(p.schema, p.name, `1,${above}`));
    });
    expect(unbounded.map((p) => `${p.path} ${p.name}`)).toEqual([]);
    const largestRefused = parameters.filter((p) =>
      refused(p.schema, p.name, typeof p.sample === 'number' ? MAX_RECORD_ID : String(MAX_RECORD_ID)),
    );
    expect(largestRefused.map((p) => `${p.path} ${p.name}`)).toEqual([]);
  });
});
