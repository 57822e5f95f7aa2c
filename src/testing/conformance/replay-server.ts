import { createServer } from "node:http";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { constants as http2Constants, createServer as createHttp2Server } from "node:http2";
import type { Http2ServerRequest, Http2ServerResponse, Http2Session } from "node:http2";
import type { AddressInfo, Socket } from "node:net";

/** One recorded HTTP answer, replayed as it is. */
export interface ReplayResponse {
  /** @default 200 */
  status?: number;
  headers?: Record<string, string>;
  /** A string or bytes go in one write; an array goes piece by piece, each piece flushed on its own. */
  body: string | Uint8Array | readonly (string | Uint8Array)[];
  /** Leave the response open after the body, as a stream that stalls; only the client can end it. */
  stall?: boolean;
}

/** A request the replay server received. */
export interface ReplayedRequest {
  method: string;
  /** Path and query, e.g. `/v1/chat/completions`. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON, when it is JSON. */
  json: unknown;
}

/**
 * What the server does with the next request: answer it; `"hold"` it open until the client gives
 * up; or `"drop"` it, closing the connection (HTTP/2: resetting the stream) without an answer, a
 * network failure that every SDK sees and many retry on their own.
 */
export type ReplayStep = ReplayResponse | "hold" | "drop";

/**
 * The server the conformance suite plays recordings through. `startReplayServer` gives one over
 * HTTP/1.1 or cleartext HTTP/2; an adapter whose client speaks something else (a socket, an
 * in-process transport) can pass its own through `AdapterConformanceOptions.server`.
 */
export interface ReplayServer {
  /** Where the adapter sends its requests, e.g. `http://127.0.0.1:<port>`. */
  url: string;
  /** Every request received, in order. */
  requests: ReplayedRequest[];
  /** Answers the next requests with these steps, in order; the last one repeats. */
  play(...steps: ReplayStep[]): void;
  close(): Promise<void>;
}

export interface ReplayServerOptions {
  /**
   * `"http2"` is cleartext HTTP/2 (h2c, prior knowledge), which clients such as the AWS SDK's
   * `NodeHttp2Handler` speak to an `http://` endpoint.
   * @default "http1"
   */
  protocol?: "http1" | "http2";
}

type Incoming = IncomingMessage | Http2ServerRequest;
type Outgoing = ServerResponse | Http2ServerResponse;

/** A server on 127.0.0.1 that records every request and replays scripted answers. */
export async function startReplayServer(options: ReplayServerOptions = {}): Promise<ReplayServer> {
  const { protocol = "http1" } = options;
  if (protocol !== "http1" && protocol !== "http2") {
    throw new TypeError(`startReplayServer: protocol must be "http1" or "http2", got ${JSON.stringify(protocol)}.`);
  }
  const requests: ReplayedRequest[] = [];
  let steps: ReplayStep[] = [{ status: 500, body: "no reply scripted" }];
  const onRequest = (incoming: Incoming, response: Outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      requests.push({
        method: incoming.method ?? "",
        url: incoming.url ?? "",
        headers: incoming.headers,
        body,
        json: parseJSON(body),
      });
      const step = steps.length > 1 ? steps.shift()! : steps[0]!;
      if (step === "drop") drop(response);
      else if (step !== "hold") void reply(response, step);
    });
  };

  const connections = new Set<Socket | Http2Session>();
  const track = (connection: Socket | Http2Session) => {
    connections.add(connection);
    connection.on("close", () => connections.delete(connection));
  };
  const server =
    protocol === "http2"
      ? createHttp2Server(onRequest).on("session", track)
      : createServer(onRequest).on("connection", track);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    play(...next) {
      if (next.length === 0) throw new TypeError("play() needs at least one step.");
      steps = next;
    },
    close() {
      for (const connection of connections) connection.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function drop(response: Outgoing): void {
  if ("stream" in response) response.stream.close(http2Constants.NGHTTP2_INTERNAL_ERROR);
  else response.socket?.destroy();
}

async function reply(response: Outgoing, step: ReplayResponse): Promise<void> {
  response.writeHead(step.status ?? 200, step.headers ?? {});
  const pieces = typeof step.body === "string" || step.body instanceof Uint8Array ? [step.body] : step.body;
  for (const piece of pieces) {
    if (response.destroyed) return;
    // Both responses take a string or bytes; their overloads just differ in the callback's shape.
    (response as ServerResponse).write(piece);
    // Let each piece leave on its own, so a client sees the body split as recorded.
    if (pieces.length > 1) await new Promise((resolve) => setImmediate(resolve));
  }
  if (!step.stall) response.end();
}

function parseJSON(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
