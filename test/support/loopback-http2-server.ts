import { createServer } from "node:http2";
import type { Http2ServerRequest, Http2ServerResponse, Http2Session } from "node:http2";
import type { AddressInfo } from "node:net";
import { recordRequest, type RecordedRequest } from "./loopback-server.js";

export type Http2Handler = (request: RecordedRequest, response: Http2ServerResponse) => void | Promise<void>;

export interface LoopbackHttp2Server {
  /** e.g. http://127.0.0.1:53211 (cleartext HTTP/2, as the AWS SDK's NodeHttp2Handler speaks it) */
  url: string;
  requests: RecordedRequest[];
  /** Answers the next requests with this handler (a queue of handlers is used one per request). */
  handle(...handlers: Http2Handler[]): void;
  close(): Promise<void>;
}

/** A cleartext HTTP/2 server on 127.0.0.1 that records every request and answers with the current handler(s). */
export async function startLoopbackHttp2Server(): Promise<LoopbackHttp2Server> {
  let queue: Http2Handler[] = [];
  const requests: RecordedRequest[] = [];
  const sessions = new Set<Http2Session>();
  const server = createServer((incoming: Http2ServerRequest, response: Http2ServerResponse) => {
    recordRequest(incoming, (recorded) => {
      requests.push(recorded);
      const handler = queue.length > 1 ? queue.shift()! : queue[0];
      if (!handler) {
        response.writeHead(599, { "content-type": "application/json" });
        response.end(JSON.stringify({ message: "no handler" }));
        return;
      }
      Promise.resolve(handler(recorded, response)).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(599);
        response.end(String(error));
      });
    });
  });
  server.on("session", (session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(...handlers) {
      queue = handlers;
    },
    close() {
      for (const session of sessions) session.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Answers with a JSON body (a string is sent as it is). */
export function sendJSON(
  response: Http2ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(typeof body === "string" ? body : JSON.stringify(body));
}

/** Answers with an AWS event-stream body. */
export function sendEventStream(response: Http2ServerResponse, body: Uint8Array): void {
  response.writeHead(200, { "content-type": "application/vnd.amazon.eventstream" });
  response.end(Buffer.from(body));
}
