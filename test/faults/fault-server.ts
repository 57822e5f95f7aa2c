import type { ServerResponse } from "node:http";
import type { Handler, LoopbackServer, RecordedRequest } from "../support/loopback-server.js";

/**
 * Faults a loopback server can inject, whatever the protocol: each is a Handler. `perPrompt`
 * answers the n-th request carrying a given last user message with the n-th handler (the last one
 * repeats), so concurrent calls through one server each get their own sequence.
 */
export function perPrompt(server: LoopbackServer, ...handlers: Handler[]): void {
  const seen = new Map<string, number>();
  server.handle((request, response) => {
    const prompt = lastUserContent(request);
    const count = seen.get(prompt) ?? 0;
    seen.set(prompt, count + 1);
    return handlers[Math.min(count, handlers.length - 1)]!(request, response);
  });
}

export function lastUserContent(request: RecordedRequest): string {
  const messages = (request.json?.messages ?? []) as { role: string; content: unknown }[];
  return String(messages.filter((message) => message.role === "user").at(-1)?.content ?? "");
}

export function requestsFor(server: LoopbackServer, prompt: string): number {
  return server.requests.filter((request) => lastUserContent(request) === prompt).length;
}

/** Destroys the connection before any byte of the response. */
export const resetBeforeResponse: Handler = (_request, response) => {
  response.socket?.destroy();
};

/** Accepts the request and never answers. */
export const neverAnswer: Handler = () => undefined;

/** Writes the status, the headers and `head`, then destroys the connection mid-body. */
export function resetMidBody(contentType: string, head: string): Handler {
  return (_request, response) => {
    response.writeHead(200, { "content-type": contentType });
    response.write(head, () => setTimeout(() => response.socket?.destroy(), 10));
  };
}

/** Answers with this status, content type and body. */
export function answerRaw(
  status: number,
  contentType: string | undefined,
  body: string,
  headers: Record<string, string> = {},
): Handler {
  return (_request, response: ServerResponse) => {
    response.writeHead(status, { ...(contentType ? { "content-type": contentType } : {}), ...headers });
    response.end(body);
  };
}

/** Writes `head` and then keeps the connection open without another byte. */
export function stallAfter(contentType: string, head: string): Handler {
  return (_request, response) => {
    response.writeHead(200, { "content-type": contentType });
    response.write(head);
  };
}

export const htmlPage = "<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>";
