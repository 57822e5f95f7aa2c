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
  /** The reason phrase the server sent (fetch's `statusText`), not a table's. */
  statusText: string;
  headers: Record<string, string | string[] | undefined>;
  /** The headers as sent, values read as latin1 bytes (as fetch reads them: every byte is a valid ByteString character). */
  headerPairs: [string, string][];
  /** undici's body: a Readable with `dump()` (reads what is left, quietly, keeping the connection). */
  body: Readable & { dump(): Promise<void> };
}

type Dispatcher = { dispatch(options: object, handler: object): boolean };
type RawData = Omit<UndiciResponseData, "statusText" | "headerPairs">;
type OnHeaders = (statusCode: number, rawHeaders: Buffer[], resume: () => void, statusMessage?: string) => boolean;
type RequestHandler = new (options: object, callback: (error: Error | null, data: RawData) => void) => { onHeaders: OnHeaders };
type RequestFunction = { RequestHandler: RequestHandler };

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
  const agent = withoutLimits ? unlimitedDispatcher() : (limited ??= new (loadAgent())());
  return new Promise((resolve, reject) => {
    // undici's request handler, told to keep what its answer leaves out: the reason phrase and the raw header bytes.
    let statusText = "";
    let headerPairs: [string, string][] = [];
    let handler: InstanceType<RequestHandler>;
    try {
      handler = new (loadRequest().RequestHandler)(request, (error, data) => (error ? reject(error) : resolve({ ...data, statusText, headerPairs })));
    } catch (error) {
      return reject(error);
    }
    const onHeaders = handler.onHeaders;
    handler.onHeaders = function (statusCode, rawHeaders, resume, statusMessage) {
      if (statusCode >= 200) {
        statusText = statusMessage ?? "";
        headerPairs = [];
        for (let i = 0; i + 1 < rawHeaders.length; i += 2) headerPairs.push([rawHeaders[i]!.toString("latin1"), rawHeaders[i + 1]!.toString("latin1")]);
      }
      return onHeaders.call(this, statusCode, rawHeaders, resume, statusMessage);
    };
    try {
      agent.dispatch(request, handler);
    } catch (error) {
      reject(error);
    }
  });
}

/** The agent for requests without the 300 s limits (a call whose own timeout is longer, or none at all). */
export function unlimitedAgent(): object {
  return unlimitedDispatcher();
}

function unlimitedDispatcher(): Dispatcher {
  return (unlimited ??= new (loadAgent())({ headersTimeout: 0, bodyTimeout: 0 }));
}

/** Whether a dispatcher is keelson's long-call agent (lean fetch sends on it; any other goes to fetch). */
export function isUnlimitedAgent(dispatcher: unknown): boolean {
  return dispatcher !== undefined && dispatcher === unlimited;
}
