/**
 * A module of keelson's own loaded on first use and kept: what a model needs only once it calls
 * (an adapter's request and response code) stays out of the import, so importing keelson and one
 * adapter never compiles the others'. A failed load is tried again next time.
 */
export function lazyImport<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
