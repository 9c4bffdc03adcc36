import dayjs from 'dayjs';

export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** A time in ms as yyyy-MM-dd HH:mm:ss (local time); nothing for a missing time. */
export const formatDateTime = (ms: number | null | undefined): string =>
  ms === null || ms === undefined ? '' : dayjs(ms).format(DATE_TIME_FORMAT);
