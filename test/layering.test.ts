// The import rules of eslint.layers.js, run through ESLint's API on snippets: a wrong import fails.
import { ESLint, type Linter } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";

// A plain JavaScript module (ESLint reads it): imported by a path TypeScript does not resolve.
const layersModule: string = "../eslint.layers.js";
const { layers } = (await import(layersModule)) as { layers: Linter.Config[] };

const eslint = new ESLint({
  overrideConfigFile: true,
  overrideConfig: [{ files: ["**/*.ts"], languageOptions: { parser: tseslint.parser } }, ...layers],
});

async function problems(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport {};\n`, { filePath });
  return result!.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

describe("the layering rules", () => {
  it.each([
    ["src/core/model/chat-model.ts", 'import { OpenAIChatModel } from "../../adapters/openai/openai-chat-model.js";'],
    ["src/core/call/run-call.ts", 'import type { X } from "../../adapters/ollama/ollama-calls.js";'],
    ["src/core/model/chat-model.ts", 'import { ScriptedChatModel } from "../../testing/scripted-chat-model.js";'],
    ["src/core/cache/memory-cache.ts", 'import { defineTool } from "keelson";'],
    ["src/internal/abort.ts", 'import { ProviderError } from "../core/errors/provider-error.js";'],
    ["src/adapters/openai/openai-error.ts", 'import { mapOllamaError } from "../ollama/map-ollama-error.js";'],
    ["src/adapters/bedrock/bedrock-calls.ts", 'import { env } from "../openai/create-openai-client.js";'],
    ["src/adapters/ollama/ollama-calls.ts", 'import type { X } from "../bedrock/bedrock-calls.js";'],
    ["src/adapters/azure-openai/create-azure-client.ts", 'import { x } from "../ollama/ollama-host.js";'],
    ["src/adapters/anthropic/anthropic-calls.ts", 'import { x } from "../openai/openai-calls.js";'],
    ["src/adapters/google/google-calls.ts", 'import { x } from "../anthropic/anthropic-calls.js";'],
    ["src/adapters/openai/openai-calls.ts", 'import { x } from "../google/google-calls.js";'],
    ["src/core/model/chat-model.ts", 'import { x } from "../../adapters/anthropic/anthropic-calls.js";'],
    ["src/core/model/chat-model.ts", 'import { x } from "../../adapters/google/google-calls.js";'],
    ["src/core/model/call-bridge.ts", 'import { rateLimited } from "../../fleet/rate-limited.js";'],
    ["src/core/model/chat-model.ts", 'import { runTools } from "../../run-tools/run-tools.js";'],
    ["src/core/call/run-call.ts", 'import type { EvalCase } from "../../eval/eval-case.js";'],
    ["src/core/model/chat-model.ts", 'import { spans } from "../../otel/model-spans.js";'],
    ["src/core/model/chat-model.ts", 'import { mcpTools } from "../../mcp/mcp-tools.js";'],
    [
      "src/core/stream/chat-model-stream.ts",
      'import { ReplayChatModel } from "../../testing/record-replay/replay-chat-model.js";',
    ],
    ["src/internal/abort.ts", 'import { withFallbacks } from "../fleet/with-fallbacks.js";'],
    ["src/internal/abort.ts", 'import { OpenAIChatModel } from "../adapters/openai/index.js";'],
    ["src/adapters/openai/openai-calls.ts", 'import { withFallbacks } from "../../fleet/with-fallbacks.js";'],
    ["src/adapters/azure-openai/azure-chat-model.ts", 'import { x } from "../../testing/scripted-chat-model.js";'],
    ["src/eval/parse-case.ts", 'import { x } from "../adapters/openai/convert-from-openai-messages.js";'],
    ["src/testing/record-replay/cassette.ts", 'import { x } from "../../adapters/ollama/ollama-calls.js";'],
    ["src/fleet/with-fallbacks.ts", 'import { x } from "../adapters/bedrock/bedrock-calls.js";'],
  ])("should fail %s importing across a layer", async (filePath, source) => {
    expect(await problems(filePath, source)).toEqual([expect.stringMatching(/^no-restricted-imports: /)]);
  });

  it.each([
    ["src/core/model/chat-model.ts", 'import { callSignal } from "../../internal/abort.js";'],
    ["src/core/call/run-call.ts", 'import { ProviderError } from "../errors/provider-error.js";'],
    ["src/adapters/openai/openai-calls.ts", 'import { ChatModel } from "../../core/model/chat-model.js";'],
    ["src/adapters/ollama/ollama-calls.ts", 'import { abortError } from "../../internal/abort.js";'],
    ["src/adapters/azure-openai/create-azure-client.ts", 'import { env } from "../openai/create-openai-client.js";'],
    ["src/internal/platform-fetch.ts", 'import { markPlatformFetch } from "./long-call-dispatcher.js";'],
    ["src/core/model/call-bridge.ts", 'import { rateLimitMiddleware } from "../rate-limit/rate-limit-middleware.js";'],
    ["src/adapters/anthropic/anthropic-calls.ts", 'import { ChatModel } from "../../core/model/chat-model.js";'],
    ["src/eval/parse-case.ts", 'import { convertFromOpenAIMessages } from "../adapters/openai/index.js";'],
    ["src/fleet/with-fallbacks.ts", 'import { ChatModel } from "../core/model/chat-model.js";'],
  ])("should let %s import along the layers", async (filePath, source) => {
    expect(await problems(filePath, source)).toEqual([]);
  });
});
