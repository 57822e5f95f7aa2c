import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { leanFetch } from "../../src/internal/lean-fetch.js";
import { undiciAgent, withGlobalDispatcher } from "../support/global-dispatcher.js";
import { sendJSON, useLoopbackServer } from "../support/loopback-server.js";

const server = useLoopbackServer();

afterEach(() => {
  vi.unstubAllGlobals();
});

/** What a caller sees of a response: everything but how it was fetched. */
async function seen(response: Response) {
  return {
    status: response.status,
    statusText: response.statusText,
    ok: response.ok,
    url: response.url,
    type: response.headers.get("content-type"),
    cookies: response.headers.getSetCookie(),
    custom: response.headers.get("x-custom"),
    body: await response.text(),
  };
}

describe("leanFetch", () => {
  it("should send the request and hand back the response exactly as Node's fetch does", async () => {
    server.handle((request, response) => {
      response.setHeader("set-cookie", ["a=1", "b=2"]);
      sendJSON(
        response,
        201,
        {
          echo: request.json,
          method: request.method,
          type: request.headers["content-type"],
          extra: request.headers["x-extra"],
        },
        { "x-custom": "yes" },
      );
    });
    const url = `${server.url}/v1/chat?x=1`;
    for (const headers of [
      { "content-type": "application/json", "x-extra": "1" },
      new Headers({ "content-type": "application/json", "x-extra": "1" }),
      [
        ["content-type", "application/json"],
        ["x-extra", "1"],
      ] as [string, string][],
    ]) {
      const init = { method: "POST", headers, body: JSON.stringify({ hello: "world" }) };
      const lean = await seen(await leanFetch(url, init));
      expect(lean).toEqual(await seen(await fetch(url, init)));
      expect(JSON.parse(lean.body)).toEqual({
        echo: { hello: "world" },
        method: "POST",
        type: "application/json",
        extra: "1",
      });
      expect(lean).toMatchObject({ status: 201, statusText: "Created", url, cookies: ["a=1", "b=2"], custom: "yes" });
    }
    expect(server.requests.map((request) => request.url)).toEqual(Array(6).fill("/v1/chat?x=1"));
  });

  it("should hand over each part of a streamed body as it arrives, before the server has finished", async () => {
    let finish!: () => void;
    server.handle((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: first\n\n");
      finish = () => response.end("data: last\n\n");
    });
    const response = await leanFetch(`${server.url}/stream`, { method: "POST", body: "{}" });
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("data: first\n\n");
    finish();
    let rest = "";
    for (let part = await reader.read(); !part.done; part = await reader.read())
      rest += new TextDecoder().decode(part.value);
    expect(rest).toBe("data: last\n\n");
  });

  it("should decode a body the server compressed anyway", async () => {
    server.handle((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      response.end(gzipSync(JSON.stringify({ answer: 42 })));
    });
    const response = await leanFetch(`${server.url}/zipped`);
    expect(await response.json()).toEqual({ answer: 42 });
    expect(server.requests[0]!.headers["accept-encoding"]).toBeUndefined();
  });

  it("should fail as fetch does when nothing listens: TypeError 'fetch failed' with the system error as its cause", async () => {
    const closed = `${server.url.replace(/:\d+$/, ":1")}/v1`;
    const error = await leanFetch(closed, { method: "POST", body: "{}" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toMatchObject({ message: "fetch failed", cause: { code: "ECONNREFUSED" } });
  });

  it("should reject with the signal's reason when aborted before sending, while waiting for headers, or while reading", async () => {
    const before = new AbortController();
    before.abort(new Error("stop early"));
    await expect(leanFetch(`${server.url}/never`, { signal: before.signal })).rejects.toThrow("stop early");

    server.handle(() => undefined); // never answers
    const waiting = new AbortController();
    const pending = leanFetch(`${server.url}/never`, { method: "POST", body: "{}", signal: waiting.signal });
    await vi.waitFor(() => expect(server.requests.length).toBe(1));
    waiting.abort(new Error("stop waiting"));
    await expect(pending).rejects.toThrow("stop waiting");

    server.handle((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: first\n\n");
    });
    const reading = new AbortController();
    const response = await leanFetch(`${server.url}/stream`, { signal: reading.signal });
    const reader = response.body!.getReader();
    await reader.read();
    reading.abort(new Error("stop reading"));
    await expect(reader.read()).rejects.toThrow("stop reading");
  });

  it("should close the connection when the reader cancels the body", async () => {
    let closed = false;
    server.handle((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: first\n\n");
      response.on("close", () => (closed = true));
    });
    const response = await leanFetch(`${server.url}/stream`);
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    await vi.waitFor(() => expect(closed).toBe(true));
  });

  it("should follow a redirect as fetch does, resending the body on a 307", async () => {
    server.handle((request, response) => {
      if (request.url === "/old") {
        response.writeHead(307, { location: "/new" });
        response.end();
      } else sendJSON(response, 200, { at: request.url, body: request.json });
    });
    const response = await leanFetch(`${server.url}/old`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"n":1}',
    });
    expect(await response.json()).toEqual({ at: "/new", body: { n: 1 } });
  });

  it("should give a no-content status no body", async () => {
    server.handle((_request, response) => {
      response.writeHead(204);
      response.end();
    });
    const response = await leanFetch(`${server.url}/empty`, { method: "DELETE" });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it("should go through globalThis.fetch when someone patched it, even after the client was built", async () => {
    server.handle((_request, response) => sendJSON(response, 200, { from: "server" }));
    const patched = vi.fn(async () => Response.json({ from: "mock" }));
    vi.stubGlobal("fetch", patched);
    const response = await leanFetch(`${server.url}/mocked`, { method: "POST", body: "{}" });
    expect(await response.json()).toEqual({ from: "mock" });
    expect(patched).toHaveBeenCalledWith(`${server.url}/mocked`, { method: "POST", body: "{}" });
    expect(server.requests).toHaveLength(0);
  });

  it("should go through the global dispatcher someone set (a proxy, a CA), as Node's fetch would", async () => {
    server.handle((_request, response) => sendJSON(response, 200, { ok: true }));
    const configured = undiciAgent({ connect: { timeout: 4321 } });
    let connected = 0;
    configured.on("connect", () => connected++);
    await withGlobalDispatcher(configured, async () => {
      const response = await leanFetch(`${server.url}/via-dispatcher`);
      expect(await response.json()).toEqual({ ok: true });
      expect(connected).toBe(1);
    });
  });

  it("should send a request given a dispatcher of someone else's through globalThis.fetch, which honours it", async () => {
    server.handle((_request, response) => sendJSON(response, 200, { from: "server" }));
    const theirs = undiciAgent({ connect: { timeout: 4321 } });
    let connected = 0;
    theirs.on("connect", () => connected++);
    try {
      const response = await leanFetch(`${server.url}/theirs`, { dispatcher: theirs } as RequestInit);
      expect(await response.json()).toEqual({ from: "server" });
      expect(connected).toBe(1);
    } finally {
      await theirs.close();
    }
  });
});
