/**
 * `promise`, or a rejection with what `late` makes once `ms` have passed first: a store or a stream
 * that hangs never holds a call. The promise's own failure passes through as it is (a rate limiter
 * rejects with a result object, not an Error); once late, what it does after no longer matters.
 */
export function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
  late: () => unknown = () => new Error(`no answer within ${ms} ms`),
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(late()), Math.max(0, ms));
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
