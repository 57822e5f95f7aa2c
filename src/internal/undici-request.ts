import type { Readable } from "node:stream";
import { lazyRequire } from "./lazy-require.js";

export interface UndiciRequestOptions {
  origin: string;
  path: string;
  method: string;
  headers: Record<string, string> | string[] | undefined;
  body: string | Uint8Array | undefined;
  signal: AbortSignal | undefined;
  /** Without undici's 300 s limits for the headers and between body chunks (the call's own timeout ends it). */
  unlimited: boolean;
}

export interface UndiciResponseData {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  /** undici's body: a Readable with `dump()` (reads what is left, quietly, keeping the connection). */
  body: Readable & { dump(): Promise<void> };
}

type Dispatcher = object;
type RequestFunction = (this: Dispatcher, options: Omit<UndiciRequestOptions, "unlimited">) => Promise<UndiciResponseData>;

// undici's agent and request function by their own paths: its index loads fetch, WebSocket, caches
// and more (~40 ms on first use against ~18).
const purpose = "keelson's requests to providers";
const loadAgent = lazyRequire<new (options?: Record<string, unknown>) => Dispatcher>("undici/lib/dispatcher/agent.js", purpose);
const loadRequest = lazyRequire<RequestFunction>("undici/lib/api/api-request.js", purpose);

let limited: Dispatcher | undefined;
let unlimited: Dispatcher | undefined;

/** undici's `request` on keelson's own keep-alive agent, with fetch's limits or without them. */
export function undiciRequest(options: UndiciRequestOptions): Promise<UndiciResponseData> {
  const { unlimited: withoutLimits, ...request } = options;
  return loadRequest().call(withoutLimits ? unlimitedAgent() : (limited ??= new (loadAgent())()), request);
}

/** The agent for requests without the 300 s limits (a call whose own timeout is longer, or none at all). */
export function unlimitedAgent(): Dispatcher {
  return (unlimited ??= new (loadAgent())({ headersTimeout: 0, bodyTimeout: 0 }));
}
