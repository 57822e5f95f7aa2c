import { afterEach, describe, expect, it, vi } from "vitest";
import type { Message } from "../../../src/index.js";
import { MemoryCache } from "../../../src/index.js";
import { useLoopbackServer } from "../../support/loopback-server.js";
import { createOllamaModel, readOwnJSON, replyWith } from "./ollama-harness.js";

const ask: Message[] = [{ role: "user", content: "hi" }];

/**
 * A host written without a scheme (`user:pass@gpu-box:11434`, the way OLLAMA_HOST is usually set) is
 * a form the `ollama` SDK takes; its credentials must travel as a Basic header like those of
 * `http://user:pass@…`, and stay out of errors and cache keys.
 */
describe("OllamaChatModel host credentials without a scheme", () => {
  const server = useLoopbackServer();
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  const schemeless = () => server.url.replace("http://", "admin:hunter2@");

  it("should send the credentials of a scheme-less host as a Basic header", async () => {
    server.handle(replyWith(readOwnJSON("api-chat-nonstream-text.json")));
    const error = await createOllamaModel(schemeless())
      .create({ messages: ask })
      .then(
        () => undefined,
        (caught: unknown) => caught as Error,
      );

    expect(error?.message ?? "").not.toContain("hunter2");
    expect(error).toBeUndefined();
    expect(server.requests[0]?.headers.authorization).toBe(`Basic ${Buffer.from("admin:hunter2").toString("base64")}`);
  });

  it("should do the same for OLLAMA_HOST", async () => {
    server.handle(replyWith(readOwnJSON("api-chat-nonstream-text.json")));
    vi.stubEnv("OLLAMA_HOST", schemeless());
    const { OllamaChatModel } = await import("../../../src/adapters/ollama/index.js");
    const output = await new OllamaChatModel("llama3.2").create({ messages: ask });

    expect(output.text).toBe("Hello! How can I help?");
    expect(server.requests[0]?.headers.authorization).toBe(`Basic ${Buffer.from("admin:hunter2").toString("base64")}`);
  });

  it("should keep the password out of the cache key", async () => {
    server.handle(replyWith(readOwnJSON("api-chat-nonstream-text.json")));
    const keys: string[] = [];
    const cache = new MemoryCache();
    const set = cache.set.bind(cache);
    cache.set = (key, value, ttlMs) => {
      keys.push(key);
      return set(key, value, ttlMs);
    };
    await createOllamaModel(schemeless(), { cache })
      .create({ messages: ask })
      .catch(() => undefined);

    expect(keys.join(" ")).not.toContain("hunter2");
    // What the model reports as its server (messages, cache key) has no credentials.
    expect((createOllamaModel(schemeless()) as unknown as { endpoint: string }).endpoint).not.toContain("hunter2");
  });
});
