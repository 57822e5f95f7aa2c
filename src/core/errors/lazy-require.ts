import { createRequire } from "node:module";
import { MissingDependencyError } from "./missing-dependency-error.js";

const requireModule = createRequire(import.meta.url);

/**
 * Loads a package synchronously on first use, so that importing keelson never pays for code a
 * call does not use (validators, schema converters, provider SDKs). `modulePath` is one of the
 * package's entry points, when not its main one; a missing package is named in the error.
 */
export function lazyRequire<T>(packageName: string, purpose: string, modulePath = packageName): () => T {
  let loaded: T | undefined;
  return () => {
    if (loaded !== undefined) return loaded;
    try {
      loaded = requireModule(modulePath) as T;
    } catch (error) {
      if ((error as NodeJS.ErrnoException)?.code === "MODULE_NOT_FOUND") {
        throw new MissingDependencyError({ packageName, purpose, cause: error });
      }
      throw error;
    }
    return loaded;
  };
}
