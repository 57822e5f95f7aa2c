import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AzureOpenAIChatModel } from "../../src/adapters/azure-openai/index.js";
import { OpenAIChatModel } from "../../src/adapters/openai/index.js";
import { ChatModelError } from "../../src/index.js";
import type { LoopbackServer } from "../support/loopback-server.js";
import { startLoopbackServer } from "../support/loopback-server.js";

const openAIKey = "sk-LOGGED-openai-7d1e0a93";
const azureKey = "LOGGED-azure-key-a20c5f";

/**
 * The openai SDK binds its logger's methods the first time a client logs, so the console is spied
 * on before any client of this file (vitest gives each file its own copy of the SDK) sends a request.
 */
const printed: unknown[] = [];
let server: LoopbackServer;
beforeAll(async () => {
  for (const method of ["error", "warn", "info", "log", "debug"] as const)
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void printed.push(...args));
  server = await startLoopbackServer((request, response) => {
    const echoed = `${String(request.headers.authorization ?? "")} ${String(request.headers["api-key"] ?? "")}`;
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.end(`data: {"echo": ${echoed}}\n\n`);
  });
});
afterAll(async () => {
  vi.restoreAllMocks();
  await server.close();
});

describe("the openai clients keelson builds", () => {
  it("should print nothing of an SSE line they cannot parse, which echoes the key, and keep it out of the error", async () => {
    const models = [
      new OpenAIChatModel("gpt-4o-mini", { baseURL: `${server.url}/v1`, apiKey: openAIKey, retry: { maxRetries: 0 } }),
      new AzureOpenAIChatModel("prod", { endpoint: server.url, apiKey: azureKey, retry: { maxRetries: 0 } }),
    ];
    for (const model of models) {
      const error = await model
        .createStream({ messages: [{ role: "user", content: "hi" }] })
        .final()
        .catch((failure: unknown) => failure);
      expect(ChatModelError.isInstance(error)).toBe(true);
      expect(String((error as Error).message)).not.toContain(openAIKey);
      expect(String((error as Error).message)).not.toContain(azureKey);
    }
    expect(server.requests).toHaveLength(2);
    expect(printed).toEqual([]);
  });
});
