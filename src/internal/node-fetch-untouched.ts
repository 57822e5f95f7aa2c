const globalDispatcherKey = Symbol.for("undici.globalDispatcher.1");

let checkedFetch: unknown;
let fetchIsNodes = false;
let checkedDispatcher: unknown;
// checkedDispatcher starts as undefined: no global dispatcher yet (Node's fetch has not run), the default.
let dispatcherIsDefault = true;

/**
 * Whether a request sent without Node's fetch would go the way fetch would send it: `globalThis.fetch`
 * is still Node's own (not a mock such as msw's, a polyfill or a wrapper; its source names Node's
 * bundled undici, which no other code can load) and no one has set a global dispatcher with options
 * of its own (a proxy, a CA, timeouts: `setGlobalDispatcher`). Either check is redone only when what
 * it looked at changes.
 */
export function nodeFetchUntouched(): boolean {
  const current = globalThis.fetch;
  if (current !== checkedFetch) {
    checkedFetch = current;
    fetchIsNodes =
      typeof current === "function" &&
      Function.prototype.toString.call(current).includes("internal/deps/undici/undici");
  }
  return fetchIsNodes && globalDispatcherIsPlain();
}

/**
 * Whether the process's global undici dispatcher is none or one like Node's own: not a proxy, a
 * mock or an agent with options of its own, which every request on Node's fetch must go through.
 */
export function globalDispatcherIsPlain(): boolean {
  const dispatcher = (globalThis as Record<symbol, unknown>)[globalDispatcherKey];
  if (dispatcher !== checkedDispatcher) {
    checkedDispatcher = dispatcher;
    dispatcherIsDefault = dispatcher === undefined || isPlainAgent(dispatcher);
  }
  return dispatcherIsDefault;
}

/** An undici `Agent` built without options: the one Node's fetch installs, or one just like it. */
function isPlainAgent(dispatcher: unknown): boolean {
  if (typeof dispatcher !== "object" || dispatcher === null || dispatcher.constructor?.name !== "Agent") return false;
  const optionsKey = Object.getOwnPropertySymbols(dispatcher).find((key) => key.description === "options");
  const options = optionsKey === undefined ? undefined : (dispatcher as Record<symbol, unknown>)[optionsKey];
  if (typeof options !== "object" || options === null) return false;
  // A factory of one's own (pools with their own connect, a proxy) is not kept in the options.
  const factoryKey = Object.getOwnPropertySymbols(dispatcher).find((key) => key.description === "factory");
  const factory = factoryKey === undefined ? undefined : (dispatcher as Record<symbol, unknown>)[factoryKey];
  if (typeof factory !== "function" || factory.name !== "defaultFactory") return false;
  return Object.values(options).every((value) => value === undefined);
}
