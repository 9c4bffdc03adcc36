import type { z } from 'zod';

/** An antd form rule that validates with a contract schema and shows its message key translated. */
export interface SchemaRule {
  validator(rule: unknown, value: unknown): Promise<void>;
}

export function schemaRule(
  schema: z.ZodType,
  translate: (key: string) => string,
  toSent: (value: unknown) => unknown = (value) => value ?? '',
): SchemaRule {
  return {
    async validator(_rule, value) {
      const result = schema.safeParse(toSent(value));
      if (result.success) return;
      const key = result.error.issues[0]?.message ?? 'common.notNull';
      throw new Error(translate(key));
    },
  };
}
