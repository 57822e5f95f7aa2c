import { AnthropicChatModel } from "./adapters/anthropic/index.js";
import type { AnthropicChatModelOptions } from "./adapters/anthropic/anthropic-chat-model-options.js";
import { AzureOpenAIChatModel } from "./adapters/azure-openai/index.js";
import type { AzureOpenAIChatModelOptions } from "./adapters/azure-openai/azure-openai-chat-model-options.js";
import { BedrockChatModel } from "./adapters/bedrock/index.js";
import type { BedrockChatModelOptions } from "./adapters/bedrock/bedrock-chat-model-options.js";
import { GoogleChatModel } from "./adapters/google/index.js";
import type { GoogleChatModelOptions } from "./adapters/google/google-chat-model-options.js";
import { OllamaChatModel } from "./adapters/ollama/index.js";
import type { OllamaChatModelOptions } from "./adapters/ollama/ollama-chat-model-options.js";
import { OpenAIChatModel } from "./adapters/openai/index.js";
import type { OpenAIChatModelOptions } from "./adapters/openai/openai-chat-model-options.js";
import type { ChatModel } from "./core/model/chat-model.js";
import {
  createOpenAICompatibleModel,
  openAICompatiblePresets,
  type OpenAICompatibleServer,
} from "./openai-compatible-presets.js";
import { ScriptedChatModel, type ScriptedChatModelOptions } from "./testing/scripted-chat-model.js";

/** The options each OpenAI-compatible server's name takes (see `openAICompatiblePresets`). */
export type OpenAICompatibleOptionsByServer = { [S in OpenAICompatibleServer]: OpenAIChatModelOptions };

/**
 * The options each provider name takes. A provider added to `createChatModel` is one more member
 * here (and its factory below): its name then type-checks, with its options. The OpenAI-compatible
 * servers come from the presets table.
 */
export interface ChatModelOptionsByProvider extends OpenAICompatibleOptionsByServer {
  openai: OpenAIChatModelOptions;
  "azure-openai": AzureOpenAIChatModelOptions;
  azure: AzureOpenAIChatModelOptions;
  ollama: OllamaChatModelOptions;
  bedrock: BedrockChatModelOptions;
  "amazon-bedrock": BedrockChatModelOptions;
  anthropic: AnthropicChatModelOptions;
  google: GoogleChatModelOptions;
  scripted: ScriptedChatModelOptions;
}

export type ProviderName = keyof ChatModelOptionsByProvider;

/**
 * A `provider:model` name: a provider `createChatModel` knows, a colon, the model id. A typo in the
 * provider (`"olama:llama3.1"`) is a compile error; a name read at run time (an environment
 * variable) is cast to it and checked when the model is built.
 */
export type ChatModelName<P extends ProviderName = ProviderName> = `${P}:${string}`;

const factories: { [P in ProviderName]: (modelId: string, options: ChatModelOptionsByProvider[P]) => ChatModel } = {
  openai: (modelId, options) => new OpenAIChatModel(modelId, options),
  "azure-openai": (modelId, options) => new AzureOpenAIChatModel(modelId, options),
  azure: (modelId, options) => new AzureOpenAIChatModel(modelId, options),
  ollama: (modelId, options) => new OllamaChatModel(modelId, options),
  bedrock: (modelId, options) => new BedrockChatModel(modelId, options),
  "amazon-bedrock": (modelId, options) => new BedrockChatModel(modelId, options),
  anthropic: (modelId, options) => new AnthropicChatModel(modelId, options),
  google: (modelId, options) => new GoogleChatModel(modelId, options),
  ...compatibleFactories(),
  // A scripted model built by name has an empty script: for wiring checks, not for answers.
  scripted: (modelId, options) => new ScriptedChatModel([], { ...options, modelId }),
};

/** One factory per OpenAI-compatible server in the presets table. */
function compatibleFactories(): {
  [S in OpenAICompatibleServer]: (modelId: string, options: OpenAIChatModelOptions) => ChatModel;
} {
  const entries = (Object.keys(openAICompatiblePresets) as OpenAICompatibleServer[]).map((server) => [
    server,
    (modelId: string, options: OpenAIChatModelOptions) => createOpenAICompatibleModel(server, modelId, options),
  ]);
  return Object.fromEntries(entries) as ReturnType<typeof compatibleFactories>;
}

/**
 * A model from a `provider:model` name — the provider before the first colon, the model id after
 * it (`"ollama:granite4:micro"` is model `granite4:micro` on Ollama). The OpenAI-compatible servers
 * `vllm:`, `llamacpp:`, `lmstudio:`, `groq:`, `openrouter:`, `deepseek:` and `together:` are
 * `OpenAIChatModel`s with the server's base URL, key variable and profile (`openAICompatiblePresets`). Adapters load their provider
 * SDK only when built; a missing SDK is a MissingDependencyError naming the `npm install` to run.
 */
export function createChatModel<P extends ProviderName>(
  name: ChatModelName<P>,
  options?: ChatModelOptionsByProvider[P],
): ChatModel;
export function createChatModel(name: string, options: object = {}): ChatModel {
  if (typeof name !== "string") throw new TypeError(`createChatModel expects "provider:model", got ${typeof name}.`);
  const colon = name.indexOf(":");
  const provider = (colon === -1 ? name : name.slice(0, colon)).trim().toLowerCase();
  const modelId = colon === -1 ? "" : name.slice(colon + 1).trim();
  const factory = Object.prototype.hasOwnProperty.call(factories, provider)
    ? factories[provider as ProviderName]
    : undefined;
  if (!factory) {
    throw new TypeError(
      `Unknown provider '${provider}' in "${name}". Known providers: ${Object.keys(factories).join(", ")}.`,
    );
  }
  if (modelId === "") {
    throw new TypeError(`"${name}" names no model: write "${provider}:<model id>", e.g. "ollama:llama3.1".`);
  }
  return (factory as (modelId: string, options: object) => ChatModel)(modelId, options);
}
