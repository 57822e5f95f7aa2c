import { createServer } from "node:http";
import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** One recorded HTTP answer, replayed as it is. */
export interface ReplayResponse {
  /** @default 200 */
  status?: number;
  headers?: Record<string, string>;
  /** A string or bytes go in one write; an array goes piece by piece, each piece flushed on its own. */
  body: string | Uint8Array | readonly (string | Uint8Array)[];
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

/** What the server does with the next request: answer, or hold it open until the client gives up. */
export type ReplayStep = ReplayResponse | "hold";

export interface ReplayServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: ReplayedRequest[];
  /** Answers the next requests with these steps, in order; the last one repeats. */
  play(...steps: ReplayStep[]): void;
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 that records every request and replays scripted answers. */
export async function startReplayServer(): Promise<ReplayServer> {
  const requests: ReplayedRequest[] = [];
  const sockets = new Set<Socket>();
  let steps: ReplayStep[] = [{ status: 500, body: "no reply scripted" }];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      requests.push({ method: incoming.method ?? "", url: incoming.url ?? "", headers: incoming.headers, body, json: parseJSON(body) });
      const step = steps.length > 1 ? steps.shift()! : steps[0]!;
      if (step !== "hold") void reply(response, step);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    play(...next) {
      if (next.length === 0) throw new TypeError("play() needs at least one step.");
      steps = next;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

async function reply(response: ServerResponse, step: ReplayResponse): Promise<void> {
  response.writeHead(step.status ?? 200, step.headers ?? {});
  const pieces = typeof step.body === "string" || step.body instanceof Uint8Array ? [step.body] : step.body;
  for (const piece of pieces) {
    if (response.destroyed) return;
    response.write(piece);
    // Let each piece leave on its own, so a client sees the body split as recorded.
    if (pieces.length > 1) await new Promise((resolve) => setImmediate(resolve));
  }
  response.end();
}

function parseJSON(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
