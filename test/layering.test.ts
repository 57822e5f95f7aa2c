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
    ["src/adapters/openai/map-openai-error.ts", 'import { mapOllamaError } from "../ollama/map-ollama-error.js";'],
    ["src/adapters/bedrock/bedrock-calls.ts", 'import { env } from "../openai/create-openai-client.js";'],
    ["src/adapters/ollama/ollama-calls.ts", 'import type { X } from "../bedrock/bedrock-calls.js";'],
    ["src/adapters/azure-openai/create-azure-client.ts", 'import { x } from "../ollama/ollama-host.js";'],
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
  ])("should let %s import along the layers", async (filePath, source) => {
    expect(await problems(filePath, source)).toEqual([]);
  });
});
