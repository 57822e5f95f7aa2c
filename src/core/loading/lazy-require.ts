import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { MissingDependencyError } from "../errors/missing-dependency-error.js";

const requireModule = createRequire(import.meta.url);

/**
 * Loads a package synchronously on first use, so that importing keelson never pays for code a
 * call does not use (validators, schema converters, provider SDKs). `modulePath` is one of the
 * package's entry points, when not its main one; a missing package is named in the error.
 */
export function lazyRequire<T>(packageName: string, purpose: string, modulePath = packageName): () => T {
  return lazyLoad(packageName, purpose, () => requireModule(modulePath) as T);
}

/**
 * Loads a provider SDK synchronously on first use, as {@link lazyRequire} does, but the build of
 * it the app itself gets: in keelson's ES-module build, the entry `import` resolves to (the SDK's
 * ESM build, where it has one), so an app that also imports the SDK shares one copy of it and
 * `error.cause instanceof OpenAI.APIError` holds. That entry is loaded with `require` (Node 20.19
 * and 22.12 load an ES module that way, without a flag); where that fails (an older Node, an SDK
 * with top-level await) the SDK's CommonJS entry is loaded instead. keelson's CommonJS build has
 * no `import.meta.resolve` and loads the CommonJS entry, the one a CommonJS app gets.
 */
export function lazyRequireSDK<T>(packageName: string, purpose: string, modulePath = packageName): () => T {
  return lazyLoad(packageName, purpose, () => (requireImportEntry(modulePath) ?? requireModule(modulePath)) as T);
}

function lazyLoad<T>(packageName: string, purpose: string, load: () => T): () => T {
  let loaded: T | undefined;
  return () => {
    if (loaded !== undefined) return loaded;
    try {
      loaded = load();
    } catch (error) {
      if ((error as NodeJS.ErrnoException)?.code === "MODULE_NOT_FOUND") {
        throw new MissingDependencyError({ packageName, purpose, cause: error });
      }
      throw error;
    }
    return loaded;
  };
}

/** The module `import(modulePath)` would load from here, loaded with `require`; undefined where that cannot be done. */
function requireImportEntry(modulePath: string): unknown {
  // Read as a value: the CommonJS build's `import.meta` has no `resolve`.
  const resolve = (import.meta as { resolve?: (specifier: string) => string }).resolve;
  if (typeof resolve !== "function") return undefined;
  try {
    const url = resolve(modulePath);
    return url.startsWith("file:") ? requireModule(fileURLToPath(url)) : undefined;
  } catch {
    // Not installed (the CommonJS `require` then names it), or an ES module this Node cannot `require`.
    return undefined;
  }
}
