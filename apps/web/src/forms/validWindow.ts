import type { Dayjs } from 'dayjs';
import type { SchemaRule } from './schemaRule';

/** The contract's key for an end time that is not after the start time. */
export const VALID_WINDOW_KEY = 'user.validWindow';

/** The message key when both ends are set and the end is not after the start. */
export function validWindowProblem(begin: number | undefined, end: number | undefined): string | undefined {
  return begin !== undefined && end !== undefined && begin >= end ? VALID_WINDOW_KEY : undefined;
}

/** antd rule on the end picker; give it `dependencies` on the begin picker. */
export const validWindowRule = (
  translate: (key: string) => string,
  begin: () => Dayjs | null | undefined,
): SchemaRule => ({
  async validator(_rule, value) {
    const end = value as Dayjs | null | undefined;
    const key = validWindowProblem(begin()?.valueOf(), end?.valueOf());
    if (key) throw new Error(translate(key));
  },
});
