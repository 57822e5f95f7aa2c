import { gzipSync, brotliCompressSync, deflateSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import OpenAI from "openai";
import { leanFetch } from "../../src/internal/lean-fetch.js";
import { OpenAIChatModel } from "../../src/adapters/openai/index.js";
import { OllamaChatModel } from "../../src/adapters/ollama/index.js";
import { sendJSON, useLoopbackServer } from "../support/loopback-server.js";
import { openAITextReply } from "../support/openai-wire.js";
import { ollamaTextReply } from "../adapters/ollama/ollama-harness.js";
import { settleCall, user } from "../support/run-modes.js";

const server = useLoopbackServer();
let closedURL = "";
beforeAll(async () => {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  closedURL = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  await new Promise((r) => s.close(r));
});
const nodeFetch = globalThis.fetch;
const transports = [
  ["lean", leanFetch],
  ["node", nodeFetch],
] as const;
const modes = ["create", "createStream"] as const;

const ollama = (f: typeof fetch, url = server.url) =>
  new OllamaChatModel("llama3.2", { host: url, retry: { maxRetries: 0 }, fetch: f });
const openai = (f: typeof fetch, url = server.url) =>
  new OpenAIChatModel("gpt-4o", {
    client: new OpenAI({ baseURL: `${url}/v1`, apiKey: "k", maxRetries: 0, fetch: f }),
    retry: { maxRetries: 0 },
  });
const makers = { ollama, openai };
const replies = { ollama: ollamaTextReply("hi there"), openai: openAITextReply("hi there") };

async function outcome(model: Parameters<typeof settleCall>[0], mode: (typeof modes)[number], extra: object = {}) {
  const { output, error, chunks } = await settleCall(model, { messages: [user("hi")], ...extra }, mode);
  if (output) return { text: output.text };
  const cause = error!.cause as Error | undefined;
  return {
    cls: error!.constructor.name,
    name: error!.name,
    message: error!.message.replace(/:\d{4,5}/g, ":PORT"),
    reason: error!.reason,
    status: error!.statusCode,
    retryable: error!.isRetryable,
    code: (error as { code?: string }).code,
    cause: cause?.constructor?.name,
    causeMsg: cause?.message?.replace(/:\d{4,5}/g, ":PORT"),
    chunks: chunks.length,
  };
}
async function both(run: (f: typeof fetch) => Promise<unknown>) {
  const out: Record<string, unknown> = {};
  for (const [name, f] of transports) out[name] = await run(f);
  return out as { lean: unknown; node: unknown };
}
const body = (r: { body?: unknown }) => [r.body].flat().join("");

describe.each(["ollama", "openai"] as const)("leanFetch through the %s SDK, next to Node's fetch", (provider) => {
  const make = makers[provider];
  const reply = replies[provider];
  it.each(modes)("should fail on error statuses, with and without bodies, as on Node's fetch (%s)", async (mode) => {
    for (const [status, type, text] of [
      [400, "application/json", provider === "ollama" ? '{"error":"bad"}' : '{"error":{"message":"bad","type":"x"}}'],
      [401, "text/plain", ""],
      [404, "text/html", "<h1>nope</h1>"],
      [429, "application/json", "{}"],
      [500, "", ""],
      [502, "text/plain", "upstream"],
    ] as const) {
      server.handle((_q, r) => {
        r.writeHead(status, type ? { "content-type": type, "retry-after": "2" } : {});
        r.end(text);
      });
      const { lean, node } = await both((f) => outcome(make(f), mode));
      expect(lean, `${status}`).toEqual(node);
    }
  });
  it.each(modes)("should end a 204 and a 3xx without a location as on Node's fetch (%s)", async (mode) => {
    for (const status of [204, 302, 304]) {
      server.handle((_q, r) => {
        r.writeHead(status);
        r.end();
      });
      const { lean, node } = await both((f) => outcome(make(f), mode));
      expect(lean, `${status}`).toEqual(node);
    }
  });
  it.each(modes)("should read compressed responses as Node's fetch does (%s)", async (mode) => {
    for (const [enc, fn] of [
      ["gzip", gzipSync],
      ["br", brotliCompressSync],
      ["deflate", deflateSync],
    ] as const) {
      server.handle((q, r) => {
        const a = q.json?.stream ? reply.stream! : reply.create!;
        r.writeHead(200, { ...(a.headers ?? {}), "content-encoding": enc });
        r.end(fn(Buffer.from(body(a))));
      });
      const { lean, node } = await both((f) => outcome(make(f), mode));
      expect(lean, enc).toEqual(node);
      expect(lean).toEqual({ text: "hi there" });
    }
  });
  it.each(modes)("should read a stream sent one byte at a time as Node's fetch does (%s)", async (mode) => {
    server.handle(async (q, r) => {
      const a = q.json?.stream ? reply.stream! : reply.create!;
      r.writeHead(200, a.headers ?? {});
      for (const byte of Buffer.from(body(a))) {
        r.write(Buffer.from([byte]));
        if (byte === 10) await new Promise((s) => setImmediate(s));
      }
      r.end();
    });
    const { lean, node } = await both((f) => outcome(make(f), mode));
    expect(lean).toEqual(node);
    expect(lean).toEqual({ text: "hi there" });
  });
  it.each(modes)("should fail on a refused connection as on Node's fetch (%s)", async (mode) => {
    const { lean, node } = await both((f) => outcome(make(f, closedURL), mode));
    expect(lean).toEqual(node);
  });
  it.each(modes)("should fail on a reset before the headers as on Node's fetch (%s)", async (mode) => {
    server.handle((_q, r) => {
      r.socket!.destroy();
    });
    const { lean, node } = await both((f) => outcome(make(f), mode));
    expect(lean).toEqual(node);
  });
  it.each(modes)("should fail on a reset mid-body as on Node's fetch (%s)", async (mode) => {
    server.handle((q, r) => {
      const a = q.json?.stream ? reply.stream! : reply.create!;
      const text = body(a);
      r.writeHead(200, { ...(a.headers ?? {}), "content-length": String(text.length + 50) });
      r.write(text.slice(0, Math.floor(text.length / 2)));
      setTimeout(() => r.socket!.destroy(), 20);
    });
    const { lean, node } = await both((f) => outcome(make(f), mode));
    expect(lean).toEqual(node);
  });
  it.each(modes)(
    "should end on an abort or a timeout while waiting for headers as on Node's fetch (%s)",
    async (mode) => {
      server.handle(() => undefined);
      const aborted = await both((f) => {
        const c = new AbortController();
        setTimeout(() => c.abort(), 50);
        return outcome(make(f), mode, { signal: c.signal });
      });
      expect(aborted.lean).toEqual(aborted.node);
      const timed = await both((f) => outcome(make(f), mode, { timeout: 80 }));
      expect(timed.lean).toEqual(timed.node);
    },
  );
  it("should end on an abort mid-stream as on Node's fetch", async () => {
    server.handle((q, r) => {
      const a = reply.stream!;
      r.writeHead(200, a.headers ?? {});
      const t = body(a);
      r.write(t.slice(0, t.indexOf(provider === "openai" ? "\n\n" : "\n") + (provider === "openai" ? 2 : 1)));
    });
    const out = await both(async (f) => {
      const c = new AbortController();
      const stream = make(f).createStream({ messages: [user("hi")], signal: c.signal });
      const seen: unknown[] = [];
      try {
        for await (const chunk of stream) {
          seen.push(chunk);
          c.abort(new Error("user stop"));
        }
        return "done";
      } catch (e) {
        return { n: (e as Error).name, m: (e as Error).message, cls: (e as Error).constructor.name };
      }
    });
    expect(out.lean).toEqual(out.node);
  });
  it("should answer 200 concurrent calls as Node's fetch does", async () => {
    server.handle((q, r) => {
      const a = reply.create!;
      setTimeout(() => {
        r.writeHead(200, a.headers ?? {});
        r.end(body(a));
      }, 5);
    });
    const out = await both(async (f) => {
      const m = make(f);
      return (await Promise.all(Array.from({ length: 200 }, () => outcome(m, "create")))).filter(
        (o) => (o as { text?: string }).text === "hi there",
      ).length;
    });
    expect(out).toEqual({ lean: 200, node: 200 });
  });
});

describe("leanFetch next to Node's fetch: warnings and large bodies", () => {
  it("should warn no more than Node's fetch with 30 concurrent Ollama calls sharing one signal", async () => {
    const reply = replies.ollama.create!;
    server.handle(
      (_q, r) =>
        void setTimeout(() => {
          r.writeHead(200, reply.headers ?? {});
          r.end(body(reply));
        }, 20),
    );
    const out = await both(async (f) => {
      const warnings: string[] = [];
      const listener = (w: Error) => warnings.push(w.name);
      process.on("warning", listener);
      const c = new AbortController();
      const m = ollama(f);
      await Promise.all(Array.from({ length: 30 }, () => m.create({ messages: [user("hi")], signal: c.signal })));
      await new Promise((s) => setTimeout(s, 20));
      process.off("warning", listener);
      return warnings;
    });
    expect(out.lean).toEqual(out.node);
  });
  it("should carry a 5 MB request and an 8 MB response as Node's fetch does", async () => {
    server.handle((q, r) => sendJSON(r, 200, { size: q.body.length, pad: "x".repeat(8_000_000) }));
    const out = await both(async (f) => {
      const res = await f(`${server.url}/big`, { method: "POST", body: "y".repeat(5_000_000) });
      const j = (await res.json()) as { size: number; pad: string };
      return [j.size, j.pad.length];
    });
    expect(out.lean).toEqual(out.node);
  });
});
