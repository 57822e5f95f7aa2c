import { createRequire } from "node:module";

const globalDispatcherKey = Symbol.for("undici.globalDispatcher.1");
const requireModule = createRequire(import.meta.url);

/** An undici dispatcher, as a test builds one to set globally or pass along. */
export interface TestDispatcher {
  on(event: string, listener: () => void): void;
  close(): Promise<void>;
}

/** An undici `Agent` with options of its own, from undici's public export. */
export function undiciAgent(options: object): TestDispatcher {
  const { Agent } = requireModule("undici") as { Agent: new (options: object) => TestDispatcher };
  return new Agent(options);
}

/** Runs `run` with `dispatcher` as the process's global undici dispatcher (`setGlobalDispatcher`), then puts the previous one back and closes it. */
export async function withGlobalDispatcher(dispatcher: TestDispatcher, run: () => Promise<void>): Promise<void> {
  const globals = globalThis as Record<symbol, unknown>;
  const previous = globals[globalDispatcherKey];
  globals[globalDispatcherKey] = dispatcher;
  try {
    await run();
  } finally {
    globals[globalDispatcherKey] = previous;
    await dispatcher.close();
  }
}
