import { afterEach, describe, expect, it, vi } from "vitest";
import { OllamaChatModel } from "../../../src/adapters/ollama/index.js";
import type { Message } from "../../../src/index.js";
import { useLoopbackServer } from "../../support/loopback-server.js";
import { readOwnFixture, readOwnJSON, replyWith } from "./ollama-harness.js";

const ask: Message[] = [{ role: "user", content: "hi" }];

/**
 * OLLAMA_HOST is the variable the `ollama` CLI and server read, and they clean it first: spaces and
 * quotes around it go, and an IPv6 address may be written without brackets
 * (ollama/ollama envconfig/config_test.go: " 1.2.3.4 ", "\"1.2.3.4\"", "'1.2.3.4'", "::1" → [::1]:11434).
 * A value that works for `ollama run` must reach the same server through keelson.
 */
describe("OllamaChatModel OLLAMA_HOST forms", () => {
  const server = useLoopbackServer();
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  const hostPort = () => server.url.replace("http://", "");

  it.each([
    ["spaces around it", () => ` ${hostPort()} `],
    ["double quotes around it", () => `"${hostPort()}"`],
    ["single quotes around it", () => `'${hostPort()}'`],
    ["quotes and spaces around it", () => ` " ${hostPort()} " `],
  ])("should reach the server when OLLAMA_HOST has %s", async (_form, value) => {
    server.handle(replyWith(readOwnJSON("api-chat-nonstream-text.json")));
    vi.stubEnv("OLLAMA_HOST", value());
    const output = await new OllamaChatModel("llama3.2", { retry: { maxRetries: 0 } }).create({ messages: ask });
    expect(output.text).toBe("Hello! How can I help?");
    expect(server.requests).toHaveLength(1);
  });

  it("should take an IPv6 address without brackets, on Ollama's default port", async () => {
    vi.stubEnv("OLLAMA_HOST", "::1");
    const urls: string[] = [];
    const model = new OllamaChatModel("llama3.2", {
      retry: { maxRetries: 0 },
      fetch: (url) => {
        urls.push(String(url));
        return Promise.resolve(
          new Response(readOwnFixture("api-chat-nonstream-text.json"), {
            headers: { "content-type": "application/json" },
          }),
        );
      },
    });
    const output = await model.create({ messages: ask });
    expect(output.text).toBe("Hello! How can I help?");
    expect(urls).toEqual(["http://[::1]:11434/api/chat"]);
  });
});
