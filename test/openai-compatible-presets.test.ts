import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OpenAIChatModel } from "../src/adapters/openai/index.js";
import { AnthropicChatModel } from "../src/adapters/anthropic/index.js";
import { createChatModel, ProviderError } from "../src/index.js";
import type { OpenAICompatibleServer } from "../src/index.js";
import { openAICompatiblePresets } from "../src/index.js";
import { useLoopbackServer } from "./support/loopback-server.js";
import type { LoopbackServer } from "./support/loopback-server.js";
import { jsonResponse, openAITextReply, sseResponse } from "./support/openai-wire.js";
import type { ReplayResponse } from "../src/testing/index.js";
import { hasSharedFixtures, missingFixturesMessage, readFixture } from "./support/shared-fixtures.js";

const server = useLoopbackServer();

function answer(target: LoopbackServer, ...replies: ReplayResponse[]): void {
  let next = 0;
  target.handle((_request, response) => {
    const reply = replies[Math.min(next++, replies.length - 1)]!;
    response.writeHead(reply.status ?? 200, reply.headers);
    response.end(reply.body as string);
  });
}

/** The environment variables a preset reads, saved and cleared around each test. */
const envNames = [...Object.values(openAICompatiblePresets).map((preset) => preset.apiKeyEnv), "OPENAI_API_KEY"];
let saved: Record<string, string | undefined> = {};
beforeEach(() => {
  saved = Object.fromEntries(envNames.map((name) => [name, process.env[name]]));
  for (const name of envNames) delete process.env[name];
});
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const user = [{ role: "user" as const, content: "Hello" }];

// Each server: its usual base URL, the key variable, and the profile its documentation gives.
const expected: Record<
  OpenAICompatibleServer,
  { baseURL: string; keyEnv: string; hosted: boolean; toolChoice: string[]; structured: boolean }
> = {
  vllm: {
    baseURL: "http://localhost:8000/v1",
    keyEnv: "VLLM_API_KEY",
    hosted: false,
    toolChoice: ["auto", "none", "required", "single"],
    structured: true,
  },
  llamacpp: {
    baseURL: "http://localhost:8080/v1",
    keyEnv: "LLAMA_API_KEY",
    hosted: false,
    toolChoice: ["auto", "none", "required"],
    structured: true,
  },
  lmstudio: {
    baseURL: "http://localhost:1234/v1",
    keyEnv: "LM_API_TOKEN",
    hosted: false,
    toolChoice: ["auto", "none", "required"],
    structured: true,
  },
  groq: {
    baseURL: "https://api.groq.com/openai/v1",
    keyEnv: "GROQ_API_KEY",
    hosted: true,
    toolChoice: ["auto", "none", "required", "single"],
    structured: false,
  },
  openrouter: {
    baseURL: "https://openrouter.ai/api/v1",
    keyEnv: "OPENROUTER_API_KEY",
    hosted: true,
    toolChoice: ["auto", "none", "required", "single"],
    structured: false,
  },
  deepseek: {
    baseURL: "https://api.deepseek.com",
    keyEnv: "DEEPSEEK_API_KEY",
    hosted: true,
    toolChoice: ["auto", "none", "required", "single"],
    structured: false,
  },
  gemini: {
    baseURL: "https://generativelanguage.googleapis.com/v1beta/openai",
    keyEnv: "GEMINI_API_KEY",
    hosted: true,
    toolChoice: ["auto", "none", "required", "single"],
    structured: true,
  },
  together: {
    baseURL: "https://api.together.xyz/v1",
    keyEnv: "TOGETHER_API_KEY",
    hosted: true,
    toolChoice: ["auto", "none", "required", "single"],
    structured: false,
  },
};

describe.each(Object.entries(expected))("createChatModel('%s:…')", (name, preset) => {
  const modelName = `${name}:org/some-model:q4` as `${OpenAICompatibleServer}:${string}`;

  it("builds an OpenAIChatModel on the server's base URL, the model id after the first colon", () => {
    process.env[preset.keyEnv] = `key-for-${name}-123456`;
    const model = createChatModel(modelName);
    expect(model).toBeInstanceOf(OpenAIChatModel);
    expect(model.providerId).toBe(name);
    expect(model.modelId).toBe("org/some-model:q4");
    expect((model as OpenAIChatModel).client.baseURL).toBe(preset.baseURL);
  });

  it("has the capability profile of the server's documentation, options still winning", () => {
    process.env[preset.keyEnv] = `key-for-${name}-123456`;
    const model = createChatModel(modelName);
    expect([...model.toolChoiceSupport].sort()).toEqual([...preset.toolChoice].sort());
    expect(model.supportsStructuredOutput).toBe(preset.structured);
    const overridden = createChatModel(modelName, { toolChoiceSupport: ["auto"], supportsStructuredOutput: true });
    expect([...overridden.toolChoiceSupport]).toEqual(["auto"]);
    expect(overridden.supportsStructuredOutput).toBe(true);
  });

  it(`sends the key from ${preset.keyEnv} (never OPENAI_API_KEY) to an overridden base URL`, async () => {
    process.env.OPENAI_API_KEY = "sk-openai-must-not-travel";
    process.env[preset.keyEnv] = `key-for-${name}-123456`;
    answer(server, openAITextReply("hi").create!);
    const model = createChatModel(modelName, { baseURL: `${server.url}/v1`, retry: { maxRetries: 0 } });
    const output = await model.create({ messages: user });
    expect(output.text).toBe("hi");
    expect(server.requests[0]!.url).toBe("/v1/chat/completions");
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer key-for-${name}-123456`);
    expect(server.requests[0]!.json.model).toBe("org/some-model:q4");
  });

  it("never sends tools beside a response_format: the final answer goes as a forced tool beside the others", async () => {
    // A grammar-enforced format (vLLM, llama.cpp, LM Studio) would block the tool calls (as ollama/ollama#11037).
    process.env[preset.keyEnv] = `key-for-${name}-123456`;
    answer(server, openAITextReply('{"city":"Oslo"}').create!);
    const model = createChatModel(modelName, { baseURL: `${server.url}/v1`, retry: { maxRetries: 0 } });
    const weather = { name: "get_weather", inputSchema: { type: "object", properties: { city: { type: "string" } } } };
    const answerSchema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
    const output = await model.create({ messages: user, tools: [weather], responseFormat: answerSchema });
    const body = server.requests[0]!.json;
    expect(body.response_format).toBeUndefined();
    expect(body.tools.map((tool: any) => tool.function.name)).toEqual(["get_weather", "keelson_final_answer"]);
    expect(body.tool_choice).toBe("required");
    expect(output.object).toEqual({ city: "Oslo" });
  });

  it(
    preset.hosted ? `refuses to build without ${preset.keyEnv}` : "needs no key (and sends no OpenAI key)",
    async () => {
      process.env.OPENAI_API_KEY = "sk-openai-must-not-travel";
      if (preset.hosted) {
        expect(() => createChatModel(modelName)).toThrow(new RegExp(preset.keyEnv));
        return;
      }
      answer(server, openAITextReply("hi").create!);
      const model = createChatModel(modelName, { baseURL: `${server.url}/v1`, retry: { maxRetries: 0 } });
      await model.create({ messages: user });
      expect(server.requests[0]!.headers.authorization).not.toContain("sk-openai-must-not-travel");
    },
  );
});

describe("createChatModel('anthropic:…')", () => {
  it("builds an AnthropicChatModel with the model id after the first colon", () => {
    const model = createChatModel("anthropic:claude-sonnet-4-5", { apiKey: "sk-ant-test" });
    expect(model).toBeInstanceOf(AnthropicChatModel);
    expect(model.modelId).toBe("claude-sonnet-4-5");
  });
});

// The recorded gateway traffic in ../shared/fixtures/extra, replayed through each preset.
describe.skipIf(!hasSharedFixtures)(hasSharedFixtures ? "recorded gateway traffic" : missingFixturesMessage, () => {
  if (!hasSharedFixtures) return;
  const options = () => ({ apiKey: "gateway-key-123456", baseURL: `${server.url}/v1`, retry: { maxRetries: 0 } });

  it("deepseek: the reasoner's SSE, reasoning_content apart from the content, reasoning tokens counted", async () => {
    const sse = readFixture("extra/openai/compat-deepseek-reasoner-stream-reasoning-content.sse");
    answer(server, sseResponse(sse));
    const payloads = sse
      .split("\n")
      .filter((line) => line.startsWith("data: {"))
      .map(
        (line) =>
          JSON.parse(line.slice(6)) as { choices: { delta: { content?: string; reasoning_content?: string } }[] },
      );
    const join = (field: "content" | "reasoning_content") =>
      payloads.map((payload) => payload.choices[0]?.delta[field] ?? "").join("");
    const output = await createChatModel("deepseek:deepseek-reasoner", options())
      .createStream({ messages: user })
      .final();
    expect(output.text).toBe(join("content"));
    expect(output.reasoning).toBe(join("reasoning_content"));
    expect(output.reasoning.length).toBeGreaterThan(0);
    expect(output.usage.reasoningTokens).toBe(198);
  });

  it("openrouter: the upstream 429 is a retryable rate limit naming the upstream's message", async () => {
    answer(
      server,
      jsonResponse(readFixture("extra/openai/compat-openrouter-error-429-upstream-rate-limited.json"), 429),
    );
    const error = await createChatModel("openrouter:google/gemini-2.0-flash-exp:free", options())
      .create({ messages: user })
      .catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 429, reason: "rate-limit", isRetryable: true, providerId: "openrouter" });
  });

  it("openrouter: a stream cut by its error chunk after the text fails with that error, never as an answer", async () => {
    answer(server, sseResponse(readFixture("extra/openai/compat-openrouter-stream-length-then-error-chunk.sse")));
    const error = await createChatModel("openrouter:some/model", options())
      .createStream({ messages: user })
      .final()
      .catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).message).toMatch(/Token limit reached/);
  });

  it("groq: the recorded 400 tool_use_failed is the model's reply, re-asked until the next reply is a valid call", async () => {
    const tool = {
      name: "get_something_by_name",
      inputSchema: {
        type: "object",
        properties: { name: { type: "string" } },
        required: ["name"],
        additionalProperties: false,
      },
    };
    answer(
      server,
      jsonResponse(readFixture("extra/malformed/groq-400-tool-use-failed-then-valid-call.0.json"), 400),
      jsonResponse(readFixture("extra/malformed/groq-400-tool-use-failed-then-valid-call.1.json")),
    );
    const model = createChatModel("groq:openai/gpt-oss-120b", options());
    const output = await model.create({ messages: user, tools: [tool] });
    expect(output.toolCalls).toEqual([
      expect.objectContaining({ name: "get_something_by_name", args: { name: "test" } }),
    ]);
    expect(output.meta.attempts).toHaveLength(2);
  });
});
