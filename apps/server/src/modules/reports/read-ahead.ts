/**
 * The results of `reads` in their order, with up to `ahead` of them under way at once: an export
 * has the database read the next periods (on other cores or worker threads) while it writes one.
 * Reads still running when the consumer stops are left to finish; their results are not wanted.
 */
export async function* inOrder<T>(reads: Array<() => Promise<T>>, ahead: number): AsyncGenerator<T> {
  const started: Array<Promise<T>> = [];
  const startUpTo = (count: number) => {
    while (started.length < Math.min(count, reads.length)) started.push(reads[started.length]!());
  };
  let next = 0;
  try {
    for (; next < reads.length; next++) {
      startUpTo(next + ahead);
      yield await started[next]!;
    }
  } finally {
    // allSettled marks the abandoned reads as handled, so a failure among them is not unhandled.
    void Promise.allSettled(started.slice(next + 1));
  }
}
