/**
 * A module of keelson's own loaded on first use and kept: what a model needs only once it calls
 * stays out of the import. `loaded` is the module once it has loaded (read it first: no promise,
 * no await); `load()` loads it, once, and a failed load is tried again on the next `load()`.
 */
export class LazyModule<T> {
  loaded: T | undefined;
  #loading: Promise<T> | undefined;
  readonly #importer: () => Promise<T>;

  constructor(importer: () => Promise<T>) {
    this.#importer = importer;
  }

  load(): Promise<T> {
    this.#loading ??= this.#importer().then(
      (module) => (this.loaded = module),
      (error: unknown) => {
        this.#loading = undefined;
        throw error;
      },
    );
    return this.#loading;
  }
}

/**
 * An adapter's request and response code, loaded on its first call: importing keelson and one
 * adapter never compiles the others'.
 *
 * Returns `withModule(use)`: `use` runs on the module, at once when it is loaded (no extra await
 * on every call), else once it loads; it always settles as a promise, never throws synchronously.
 */
export function lazyImport<T>(load: () => Promise<T>): <R>(use: (module: T) => Promise<R>) => Promise<R> {
  const lazy = new LazyModule(load);
  return <R>(use: (module: T) => Promise<R>): Promise<R> => {
    const loaded = lazy.loaded;
    if (loaded !== undefined) {
      try {
        return use(loaded);
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return lazy.load().then(use);
  };
}
