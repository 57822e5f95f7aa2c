import type { Readable } from "node:stream";
import { lazyRequire } from "./lazy-require.js";

export interface UndiciRequestOptions {
  origin: string;
  path: string;
  method: string;
  headers: Record<string, string> | string[] | undefined;
  body: string | Uint8Array | undefined;
  signal: AbortSignal | undefined;
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
interface RequestHandlerInstance {
  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void, statusMessage?: string): boolean;
}
type RequestHandler = new (
  options: object,
  callback: (error: Error | null, data: RawData) => void,
) => RequestHandlerInstance;
type HeaderKeepingHandler = InstanceType<RequestHandler> & { statusText: string; headerPairs: [string, string][] };

// undici's agent and request handler by their own paths: its index loads fetch, WebSocket, caches
// and more (~40 ms on first use against ~18).
const purpose = "keelson's requests to providers";
const loadAgent = lazyRequire<new (options?: Record<string, unknown>) => Dispatcher>(
  "undici",
  purpose,
  "undici/lib/dispatcher/agent.js",
);
const loadRequest = lazyRequire<{ RequestHandler: RequestHandler }>("undici", purpose, "undici/lib/api/api-request.js");

let limited: Dispatcher | undefined;
let unlimited: Dispatcher | undefined;
let Handler: new (options: object, callback: (error: Error | null, data: RawData) => void) => HeaderKeepingHandler;

/** undici's request handler, keeping what its answer leaves out: the reason phrase and the raw header bytes. */
function handlerClass(): typeof Handler {
  return (Handler ??= class extends loadRequest().RequestHandler {
    statusText = "";
    headerPairs: [string, string][] = [];

    override onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void, statusMessage?: string): boolean {
      if (statusCode >= 200) {
        this.statusText = statusMessage ?? "";
        for (let i = 0; i + 1 < rawHeaders.length; i += 2)
          this.headerPairs.push([rawHeaders[i]!.toString("latin1"), rawHeaders[i + 1]!.toString("latin1")]);
      }
      return super.onHeaders(statusCode, rawHeaders, resume, statusMessage);
    }
  });
}

/** undici's `request` on keelson's own keep-alive agent, with fetch's limits or without them. */
export function undiciRequest(request: UndiciRequestOptions, withoutLimits: boolean): Promise<UndiciResponseData> {
  const agent = withoutLimits ? unlimitedAgent() : (limited ??= new (loadAgent())());
  return new Promise((resolve, reject) => {
    try {
      const handler: HeaderKeepingHandler = new (handlerClass())(request, (error, data) =>
        error
          ? reject(error)
          : resolve(Object.assign(data, { statusText: handler.statusText, headerPairs: handler.headerPairs })),
      );
      agent.dispatch(request, handler);
    } catch (error) {
      reject(error);
    }
  });
}

/** The agent for requests without the 300 s limits (a call whose own timeout is longer, or none at all). */
export function unlimitedAgent(): Dispatcher {
  return (unlimited ??= new (loadAgent())({ headersTimeout: 0, bodyTimeout: 0 }));
}

/** Whether a dispatcher is keelson's long-call agent (lean fetch sends on it; any other goes to fetch). */
export function isUnlimitedAgent(dispatcher: unknown): boolean {
  return dispatcher !== undefined && dispatcher === unlimited;
}
