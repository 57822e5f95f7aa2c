/**
 * An iterator over chunks that are not there yet: reads wait until `made` gives the real iterator,
 * then go straight to it. Used for the first streamed call of a process, whose pipeline is still
 * loading; `made` rejecting (the call failed before it started) fails the first read.
 */
export function deferredChunks<T, R>(made: Promise<AsyncIterator<T, R>>): AsyncIterator<T, R> {
  let iterator: AsyncIterator<T, R> | undefined;
  const ready = made.then((value) => (iterator = value));
  // A failure reaches the reader through next(); a stream nobody reads is not an unhandled rejection.
  ready.catch(() => undefined);
  return {
    next: () => (iterator ? iterator.next() : ready.then((value) => value.next())),
    return: (value?: R | PromiseLike<R>) =>
      ready.then((made) => (made.return ? made.return(value) : ({ done: true, value } as IteratorResult<T, R>))),
  };
}
