import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Readable } from "node:stream";
import { afterAll, beforeAll, beforeEach } from "vitest";

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  /** The body parsed as JSON, when it is JSON. */
  json: any;
}

export type Handler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

export interface LoopbackServer {
  /** e.g. http://127.0.0.1:53211 */
  url: string;
  requests: RecordedRequest[];
  /** Replaces the handler for the next requests. */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

/** An HTTP/1.1 server on 127.0.0.1 that records every request and answers with the current handler. */
export async function startLoopbackServer(handler: Handler = notFound): Promise<LoopbackServer> {
  let current = handler;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<import("node:net").Socket>();
  const server: Server = createServer((incoming, response) => {
    recordRequest(incoming, (recorded) => {
      requests.push(recorded);
      Promise.resolve(current(recorded, response)).catch((error: unknown) => {
        response.statusCode = 599;
        response.end(String(error));
      });
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      current = next;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A loopback server for the describe block (or file) that calls it: started before its first test,
 * its recorded requests cleared before each test, closed after the last. The handle reaches the
 * running server.
 */
export function useLoopbackServer(handler?: Handler): LoopbackServer {
  let server: LoopbackServer | undefined;
  const running = (): LoopbackServer => {
    if (!server) throw new Error("The loopback server starts in beforeAll: use it inside a test.");
    return server;
  };
  beforeAll(async () => {
    server = await startLoopbackServer(handler);
  });
  afterAll(() => server?.close());
  beforeEach(() => {
    if (server) server.requests.length = 0;
  });
  return {
    get url() {
      return running().url;
    },
    get requests() {
      return running().requests;
    },
    handle: (next) => running().handle(next),
    close: () => running().close(),
  };
}

/** Reads a request's body (an HTTP/1 or HTTP/2 request alike) and hands it over recorded, JSON parsed when it is JSON. */
export function recordRequest(
  incoming: Readable & { method?: string | undefined; url?: string | undefined; headers: RecordedRequest["headers"] },
  done: (recorded: RecordedRequest) => void,
): void {
  const chunks: Buffer[] = [];
  incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
  incoming.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8");
    let json: unknown;
    try {
      json = body ? JSON.parse(body) : undefined;
    } catch {
      json = undefined;
    }
    done({ method: incoming.method ?? "", url: incoming.url ?? "", headers: incoming.headers, body, json });
  });
}

/** Answers with a JSON body. */
export function sendJSON(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(typeof body === "string" ? body : JSON.stringify(body));
}

function notFound(_request: RecordedRequest, response: ServerResponse): void {
  sendJSON(response, 404, { error: { message: "no handler" } });
}
