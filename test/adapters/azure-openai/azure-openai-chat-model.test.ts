import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AzureOpenAIChatModel, defaultAzureAPIVersion } from "../../../src/adapters/azure-openai/index.js";
import type { AzureOpenAIChatModelOptions } from "../../../src/adapters/azure-openai/index.js";
import { ProviderError } from "../../../src/index.js";
import type { AdapterConformanceOptions } from "../../../src/testing/index.js";
import { runAdapterConformance } from "../../../src/testing/index.js";
import type { LoopbackServer } from "../../support/loopback-server.js";
import { sendJSON, startLoopbackServer } from "../../support/loopback-server.js";
import {
  answerWithText,
  jsonResponse,
  openAITextReply,
  readOpenAIRequest,
  readOwnOpenAIFixture,
  ssePayloads,
  sseResponse,
} from "../../support/openai-wire.js";
import { hasSharedFixtures, missingFixturesMessage, readFixture } from "../../support/shared-fixtures.js";
import { azureModes } from "./azure-harness.js";

const apiKey = "sk-test-SENTINEL-123";
const apiVersion = "2024-12-01-preview";
const user = [{ role: "user" as const, content: "What is the capital of France?" }];
const ownAzure = (name: string) =>
  readFileSync(join(dirname(fileURLToPath(import.meta.url)), "__fixtures__", name), "utf8");
const weather = {
  name: "get_weather",
  inputSchema: {
    type: "object",
    properties: { city: { type: "string" }, unit: { type: "string" } },
    required: ["city"],
  },
};

/** Azure's recorded stream payloads (no SSE framing was recorded), framed as the service sends them. */
const recordedStream = () =>
  sseResponse(
    ssePayloads(readFixture("azure-openai/chat-stream-text-content-filter.chunks.ndjson").trim().split("\n")),
  );
const filteredStream = ssePayloads([
  JSON.stringify({
    id: "c",
    object: "chat.completion.chunk",
    created: 1,
    model: "gpt-4o",
    choices: [
      { index: 0, delta: { role: "assistant", content: "Once" }, finish_reason: null, content_filter_results: {} },
    ],
  }),
  JSON.stringify({
    id: "c",
    object: "chat.completion.chunk",
    created: 1,
    model: "gpt-4o",
    choices: [
      {
        index: 0,
        delta: {},
        finish_reason: "content_filter",
        content_filter_results: { sexual: { filtered: true, severity: "medium" } },
      },
    ],
  }),
]);

const common: Omit<AdapterConformanceOptions, "name" | "scenarios"> = {
  createModel: (baseURL, options) =>
    new AzureOpenAIChatModel("gpt-4o", { endpoint: baseURL, apiKey, apiVersion, ...options }),
  textReply: openAITextReply,
  readRequest: readOpenAIRequest,
  retryableError: jsonResponse(
    {
      error: {
        code: "429",
        message: "Requests to the ChatCompletions_Create Operation have exceeded call rate limit.",
      },
    },
    429,
    { "retry-after": "0" },
  ),
};

runAdapterConformance(
  { describe, it },
  {
    ...common,
    name: "AzureOpenAIChatModel conformance (own fixtures)",
    scenarios: {
      toolCall: [
        {
          name: "get_weather",
          reply: { create: jsonResponse(readOwnOpenAIFixture("chat-one-tool-call.json")) },
          tools: [weather],
          expected: { name: "get_weather", args: { city: "Boston", unit: "f" }, id: "call_own_one" },
        },
      ],
      streamedToolCallArgs: {
        reply: sseResponse(readOwnOpenAIFixture("chat-tool-call-split.sse")),
        tools: [weather],
        expected: { name: "get_weather", args: { city: "Paris", unit: "c" }, id: "call_own_split" },
      },
      finishReasons: [
        {
          name: "content_filter",
          reply: {
            create: jsonResponse(ownAzure("chat-content-filter-finish.json")),
            stream: sseResponse(filteredStream),
          },
          expected: "content-filter",
        },
      ],
      errors: [
        {
          name: "404 DeploymentNotFound",
          reply: jsonResponse(ownAzure("error-404-deployment-not-found.json"), 404),
          expected: { statusCode: 404, reason: "not-found", isRetryable: false, code: "DeploymentNotFound" },
        },
      ],
    },
  },
);

describe.skipIf(!hasSharedFixtures)(hasSharedFixtures ? "recorded fixtures" : missingFixturesMessage, () => {
  if (!hasSharedFixtures) return;
  runAdapterConformance(
    { describe, it },
    {
      ...common,
      name: "AzureOpenAIChatModel conformance (recorded)",
      scenarios: {
        text: [
          {
            name: "content_filter_results annotations",
            reply: { create: jsonResponse(readFixture("azure-openai/chat-text-nonstream-content-filter.json")) },
            expected: {
              text: "The capital of France is **Paris**.",
              usage: { inputTokens: 14, outputTokens: 9, totalTokens: 23 },
            },
          },
          {
            name: "prompt_filter_results chunk first",
            reply: { stream: recordedStream() },
            expected: {
              text: "Capital of Denmark.",
              usage: { inputTokens: 15, outputTokens: 78, totalTokens: 93, reasoningTokens: 64 },
            },
          },
        ],
        errors: [
          {
            name: "400 content_filter",
            reply: jsonResponse(
              readFixture("azure-openai/chat-error-400-content-filter.issue-openai-dotnet-55.json"),
              400,
            ),
            expected: { statusCode: 400, reason: "content-policy", isRetryable: false, code: "content_filter" },
          },
        ],
      },
    },
  );
});

let server: LoopbackServer;
beforeEach(async () => {
  server = await startLoopbackServer();
});
afterEach(async () => {
  await server.close();
  vi.unstubAllEnvs();
});

function model(options: AzureOpenAIChatModelOptions = {}): AzureOpenAIChatModel {
  return new AzureOpenAIChatModel("my-gpt4o", { endpoint: server.url, apiKey, apiVersion, ...options });
}

function answerText(text: string): void {
  answerWithText(server, text);
}

const modes = azureModes;

describe("AzureOpenAIChatModel", () => {
  describe.each(modes)("$mode", ({ run }) => {
    it("should post to the deployment path with the api-version and the api-key header", async () => {
      server.handle((request, response) => {
        if (!(request.json as { stream?: boolean }).stream)
          return sendJSON(response, 200, readOwnOpenAIFixture("chat-one-tool-call.json"));
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.end(readOwnOpenAIFixture("chat-tool-call-split.sse"));
      });
      await run(model(), { messages: user, tools: [weather], toolChoice: "required" });
      const [request] = server.requests;
      expect(request!.url).toBe(`/openai/deployments/my-gpt4o/chat/completions?api-version=${apiVersion}`);
      expect(request!.headers["api-key"]).toBe(apiKey);
      expect(request!.headers.authorization).toBeUndefined();
      expect(request!.json).toMatchObject({ model: "my-gpt4o", tool_choice: "required", parallel_tool_calls: false });
    });

    it("should say that Azure wants the deployment name on a 404 DeploymentNotFound", async () => {
      server.handle((_request, response) => sendJSON(response, 404, ownAzure("error-404-deployment-not-found.json")));
      const error = await run(model({ retry: { maxRetries: 2 } }), { messages: user }).catch(
        (caught: unknown) => caught,
      );
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        providerId: "azure-openai",
        statusCode: 404,
        reason: "not-found",
        isRetryable: false,
      });
      expect((error as Error).message).toMatch(/deployment name, not the model name/);
      expect((error as Error).message).toContain("'my-gpt4o'");
      expect(server.requests).toHaveLength(1);
    });

    it("should end a filtered completion with content-filter and keep the filter results in raw", async () => {
      server.handle((request, response) => {
        if (!(request.json as { stream?: boolean }).stream)
          return sendJSON(response, 200, ownAzure("chat-content-filter-finish.json"));
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.end(filteredStream);
      });
      const output = await run(model(), { messages: user });
      expect(output.finishReason).toBe("content-filter");
      expect(JSON.stringify(output.raw)).toContain('"sexual":{"filtered":true,"severity":"medium"}');
    });

    it("should send an Entra ID bearer token instead of an api-key", async () => {
      answerText("ok");
      const subject = new AzureOpenAIChatModel("my-gpt4o", {
        endpoint: server.url,
        apiVersion,
        azureADTokenProvider: async () => "entra-token-1",
      });
      await run(subject, { messages: user });
      expect(server.requests[0]!.headers.authorization).toBe("Bearer entra-token-1");
      expect(server.requests[0]!.headers["api-key"]).toBeUndefined();
    });
  });

  describe.skipIf(!hasSharedFixtures)(hasSharedFixtures ? "recorded fixtures" : missingFixturesMessage, () => {
    it("should keep content_filter_results and prompt_filter_results in raw", async () => {
      server.handle((_request, response) =>
        sendJSON(response, 200, readFixture("azure-openai/chat-text-nonstream-content-filter.json")),
      );
      const output = await model().create({ messages: user });
      const raw = output.raw as {
        prompt_filter_results: unknown[];
        choices: { content_filter_results: Record<string, unknown> }[];
      };
      expect(raw.prompt_filter_results[0]).toMatchObject({
        prompt_index: 0,
        content_filter_results: { jailbreak: { detected: false, filtered: false } },
      });
      expect(raw.choices[0]!.content_filter_results.protected_material_code).toEqual({
        detected: false,
        filtered: false,
      });
      expect(output.finishReason).toBe("stop");
    });

    it("should keep the streamed prompt_filter_results chunk in raw", async () => {
      server.handle((_request, response) => {
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.end(recordedStream().body as string);
      });
      const output = await model().createStream({ messages: user }).final();
      expect((output.raw as { id: string; prompt_filter_results?: unknown[] }[])[0]).toMatchObject({
        id: "",
        prompt_filter_results: [{ prompt_index: 0 }],
      });
    });

    it("should not retry a 400 content_filter", async () => {
      server.handle((_request, response) =>
        sendJSON(response, 400, readFixture("azure-openai/chat-error-400-content-filter.issue-openai-dotnet-55.json")),
      );
      const error = await model({ retry: { maxRetries: 3, initialDelayMs: 1 } })
        .create({ messages: user })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ reason: "content-policy", isRetryable: false, statusCode: 400 });
      expect(server.requests).toHaveLength(1);
    });
  });

  it("should declare the azure-openai provider with all four tool_choice values and max_completion_tokens", async () => {
    answerText("ok");
    const subject = model();
    expect(subject.providerId).toBe("azure-openai");
    expect([...subject.toolChoiceSupport].sort()).toEqual(["auto", "none", "required", "single"]);
    await subject.create({ messages: user, parameters: { maxTokens: 20 } });
    expect(server.requests[0]!.json.max_completion_tokens).toBe(20);
  });

  it("should read AZURE_OPENAI_ENDPOINT, AZURE_OPENAI_API_KEY and OPENAI_API_VERSION", async () => {
    answerText("ok");
    vi.stubEnv("AZURE_OPENAI_ENDPOINT", server.url);
    vi.stubEnv("AZURE_OPENAI_API_KEY", "azure-env-key-1");
    vi.stubEnv("OPENAI_API_VERSION", "2025-01-01-preview");
    await new AzureOpenAIChatModel("dep").create({ messages: user });
    expect(server.requests[0]!.url).toBe("/openai/deployments/dep/chat/completions?api-version=2025-01-01-preview");
    expect(server.requests[0]!.headers["api-key"]).toBe("azure-env-key-1");
  });

  it("should fall back to the GA api-version when none is set", async () => {
    answerText("ok");
    vi.stubEnv("OPENAI_API_VERSION", "");
    await new AzureOpenAIChatModel("dep", { endpoint: server.url, apiKey }).create({ messages: user });
    expect(server.requests[0]!.url).toBe(
      `/openai/deployments/dep/chat/completions?api-version=${defaultAzureAPIVersion}`,
    );
  });

  it("should throw a TypeError naming AZURE_OPENAI_ENDPOINT when no endpoint is set", () => {
    vi.stubEnv("AZURE_OPENAI_ENDPOINT", "");
    expect(() => new AzureOpenAIChatModel("dep", { apiKey })).toThrow(/AZURE_OPENAI_ENDPOINT/);
  });
});
