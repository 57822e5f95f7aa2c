/**
 * A module of keelson's own loaded on first use and kept: what a model needs only once it calls
 * (an adapter's request and response code) stays out of the import, so importing keelson and one
 * adapter never compiles the others'. A failed load is tried again next time.
 *
 * Returns `withModule(use)`: `use` runs on the module, at once when it is loaded (no extra await
 * on every call), else once it loads; it always settles as a promise, never throws synchronously.
 */
export function lazyImport<T>(load: () => Promise<T>): <R>(use: (module: T) => Promise<R>) => Promise<R> {
  let loaded: T | undefined;
  let loading: Promise<T> | undefined;
  return <R>(use: (module: T) => Promise<R>): Promise<R> => {
    if (loaded !== undefined) {
      try {
        return use(loaded);
      } catch (error) {
        return Promise.reject(error);
      }
    }
    loading ??= load().then(
      (module) => (loaded = module),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading.then(use);
  };
}
