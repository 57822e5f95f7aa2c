import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { OllamaChatModel } from "../../src/adapters/ollama/index.js";
import { OpenAIChatModel } from "../../src/adapters/openai/index.js";
import { defineTool, withFallbacks, type FallbackEvent } from "../../src/index.js";
import { readOwnJSON, replyWith } from "../adapters/ollama/ollama-harness.js";
import type { Handler, LoopbackServer } from "../support/loopback-server.js";
import { sendJSON, startLoopbackServer } from "../support/loopback-server.js";
import { readOwnOpenAIFixture } from "../support/openai-wire.js";

const lookupIncident = defineTool({
  name: "lookup_incident",
  description: "Looks an incident up by its id.",
  inputSchema: z.object({ incident_id: z.string() }),
});
const input = {
  messages: [{ role: "user" as const, content: "What is the status of INC-001?" }],
  tools: [lookupIncident],
  toolChoice: lookupIncident,
};

/** A recorded reply of the OpenAI chat completions API: its status and body. */
const openAIError =
  (status: number, fixture: string, headers: Record<string, string> = {}): Handler =>
  (_request, response) =>
    sendJSON(response, status, readOwnOpenAIFixture(fixture), headers);

describe("withFallbacks over two adapters' recorded traffic", () => {
  let openai: LoopbackServer;
  let ollama: LoopbackServer;
  beforeAll(async () => {
    openai = await startLoopbackServer();
    ollama = await startLoopbackServer(replyWith(readOwnJSON("api-chat-nonstream-tool-union.json")));
  });
  afterAll(async () => {
    await openai.close();
    await ollama.close();
  });
  beforeEach(() => {
    openai.requests.length = 0;
    ollama.requests.length = 0;
  });

  function fleet() {
    const primary = new OpenAIChatModel("gpt-4o-mini", {
      baseURL: `${openai.url}/v1`,
      apiKey: "sk-test",
      retry: { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 2 },
    });
    const fallback = new OllamaChatModel("llama3.2", { host: ollama.url, retry: { maxRetries: 0 } });
    return withFallbacks([primary, fallback], { cooldownMs: 0 });
  }

  it("should answer a forced tool call on Ollama's union rung when OpenAI keeps failing with a 500", async () => {
    openai.handle(openAIError(500, "error-500-server.json"));
    const model = fleet();
    const fallbacks: FallbackEvent[] = [];
    model.emitter.on("fallback", (event) => fallbacks.push(event));
    const output = await model.create(input);
    // OpenAI was asked twice (its own retry), natively forced; then Ollama, with the union as its format.
    expect(openai.requests).toHaveLength(2);
    expect(openai.requests[0]!.json.tool_choice).toEqual({ type: "function", function: { name: "lookup_incident" } });
    expect(ollama.requests).toHaveLength(1);
    expect(ollama.requests[0]!.json.tools).toBeUndefined();
    expect(ollama.requests[0]!.json.format).toMatchObject({ type: "object" });
    expect(output.meta).toMatchObject({
      toolChoice: "response-format",
      model: { providerId: "ollama", modelId: "llama3.2" },
    });
    expect(output.toolCalls).toEqual([
      expect.objectContaining({ name: "lookup_incident", args: { incident_id: "INC-001" } }),
    ]);
    expect(fallbacks).toEqual([
      expect.objectContaining({
        failed: { providerId: "openai", modelId: "gpt-4o-mini" },
        next: { providerId: "ollama", modelId: "llama3.2" },
        error: expect.objectContaining({ statusCode: 500, reason: "server" }),
      }),
      // Ollama's own move down the ladder, passed on.
      expect.objectContaining({ rung: "response-format", reason: expect.any(String) }),
    ]);
  });

  it("should move on after OpenAI's 429 insufficient_quota, which no retry would fix", async () => {
    openai.handle(openAIError(429, "error-429-insufficient-quota.json"));
    const output = await fleet().create(input);
    expect(openai.requests).toHaveLength(1);
    expect(output.meta.model.providerId).toBe("ollama");
  });

  it("should not move on after OpenAI's 401: the request itself is refused", async () => {
    openai.handle(openAIError(401, "error-401-invalid-api-key.json"));
    await expect(fleet().create(input)).rejects.toMatchObject({ statusCode: 401, reason: "authentication" });
    expect(ollama.requests).toHaveLength(0);
  });
});
