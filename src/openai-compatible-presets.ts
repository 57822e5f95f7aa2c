import { OpenAIChatModel, type OpenAIChatModelOptions } from "./adapters/openai/index.js";
import type { ToolChoiceMode } from "./core/tool-choice/tool-choice-mode.js";
import { definedFields } from "./internal/defined-fields.js";

/** An OpenAI-compatible server keelson knows by name: where it listens and what it honours. */
export interface OpenAICompatiblePreset {
  /** The server's usual base URL (a local server's default port on localhost). */
  baseURL: string;
  /** The environment variable its key is read from; a local server needs none unless started with one. */
  apiKeyEnv: string;
  /** Whether the server refuses a request without a key (the hosted ones). */
  requiresKey: boolean;
  /** The tool_choice values its documentation says it honours. */
  toolChoiceSupport: readonly ToolChoiceMode[];
  /** Whether it takes a JSON-schema `response_format` for every model it serves. */
  supportsStructuredOutput: boolean;
  /**
   * Whether tools and a JSON-schema `response_format` can go in one request. A server that enforces
   * the format with a grammar over the whole reply cannot write a tool call beside it (as Ollama's
   * `format`, ollama/ollama#11037): the answer then travels as a forced synthetic tool. @default true
   */
  supportsResponseFormatWithTools?: boolean;
}

const all: readonly ToolChoiceMode[] = ["auto", "none", "required", "single"];
const noNamedTool: readonly ToolChoiceMode[] = ["auto", "none", "required"];

/**
 * The servers `createChatModel` knows by name, each an `OpenAIChatModel`. A profile is what the
 * server's own documentation says; where that depends on the server's version, flags or model, the
 * profile is the documented ceiling and a 400 refusing a value is learned once per endpoint and model
 * (see "Learned capabilities"): the ladder then takes the next rung. A JSON-schema response format is
 * declared only where the server enforces it for every model; elsewhere structured output goes
 * through a forced tool. Pass `toolChoiceSupport` / `supportsStructuredOutput` to say otherwise.
 */
export const openAICompatiblePresets = {
  /**
   * vLLM's OpenAI-compatible server (`vllm serve`, port 8000). Docs, "Tool Calling"
   * (docs.vllm.ai/en/latest/features/tool_calling/): named function calling and `auto`, `required`
   * (vllm >= 0.8.3) and `none`; `auto` needs the server started with `--enable-auto-tool-choice` and
   * a `--tool-call-parser`. "Structured Outputs" (docs.vllm.ai/en/latest/features/structured_outputs/):
   * `response_format` json_schema, enforced by guided decoding. Key: the server's `--api-key`, read
   * here from `VLLM_API_KEY` (the variable vLLM itself reads).
   */
  vllm: {
    baseURL: "http://localhost:8000/v1",
    apiKeyEnv: "VLLM_API_KEY",
    requiresKey: false,
    toolChoiceSupport: all,
    supportsStructuredOutput: true,
    // Assumed: the format is enforced by a grammar over the whole reply (see the field).
    supportsResponseFormatWithTools: false,
  },
  /**
   * llama.cpp's `llama-server` (port 8080). Docs, tools/server/README.md and docs/function-calling.md
   * (github.com/ggml-org/llama.cpp): OpenAI-style tool calls when started with `--jinja`;
   * `tool_choice` takes `auto`, `none` and `required` (a named function is not parsed, so one tool is
   * sent alone with `required`); `response_format` with a JSON schema is compiled to a grammar. Key:
   * `--api-key`, read here from `LLAMA_API_KEY` (the variable llama-server reads).
   */
  llamacpp: {
    baseURL: "http://localhost:8080/v1",
    apiKeyEnv: "LLAMA_API_KEY",
    requiresKey: false,
    toolChoiceSupport: noNamedTool,
    supportsStructuredOutput: true,
    // Assumed: the format is enforced by a grammar over the whole reply (see the field).
    supportsResponseFormatWithTools: false,
  },
  /**
   * LM Studio's local server (`lms server start`, port 1234). Docs, "OpenAI Compatibility Endpoints"
   * (lmstudio.ai/docs/developer/openai-compat), "Tool Use" and "Structured Output"
   * (lmstudio.ai/docs/advanced/structured-output): tools with `tool_choice` `auto`, `none` and
   * `required`; `response_format` json_schema enforced for every model (json_object is not taken).
   * Key: only when its server requires one, read here from `LM_API_TOKEN`.
   */
  lmstudio: {
    baseURL: "http://localhost:1234/v1",
    apiKeyEnv: "LM_API_TOKEN",
    requiresKey: false,
    toolChoiceSupport: noNamedTool,
    supportsStructuredOutput: true,
    // Assumed: the format is enforced by a grammar over the whole reply (see the field).
    supportsResponseFormatWithTools: false,
  },
  /**
   * GroqCloud. Docs, "Tool Use" (console.groq.com/docs/tool-use/overview): `tool_choice` `none`,
   * `auto`, `required` or one named function; "Structured Outputs" (console.groq.com/docs/structured-outputs):
   * json_schema on a listed subset of models only, so not declared. Groq refuses reasoning sent back
   * as `reasoning_content`, which OpenAIChatModel learns from its first refusal.
   */
  groq: {
    baseURL: "https://api.groq.com/openai/v1",
    apiKeyEnv: "GROQ_API_KEY",
    requiresKey: true,
    toolChoiceSupport: all,
    supportsStructuredOutput: false,
  },
  /**
   * OpenRouter. Docs, "API Reference" and "Tool Calling" (openrouter.ai/docs/api-reference/overview,
   * openrouter.ai/docs/features/tool-calling): `tool_choice` `none`, `auto`, `required` or a named
   * function, passed to the upstream provider; "Structured Outputs" (openrouter.ai/docs/features/structured-outputs):
   * json_schema only on some models and providers, so not declared. Its errors may carry a numeric
   * `code` and the upstream's message in `metadata.raw`.
   */
  openrouter: {
    baseURL: "https://openrouter.ai/api/v1",
    apiKeyEnv: "OPENROUTER_API_KEY",
    requiresKey: true,
    toolChoiceSupport: all,
    supportsStructuredOutput: false,
  },
  /**
   * DeepSeek. Docs, "Function Calling" / "Tool Calls" (api-docs.deepseek.com/guides/function_calling)
   * and the chat completion reference: `tool_choice` `none`, `auto`, `required` or a named function;
   * "JSON Output" (api-docs.deepseek.com/guides/json_mode): `response_format` json_object only, no
   * json_schema. Thinking mode needs a tool-call turn's `reasoning_content` sent back, which
   * OpenAIChatModel does on any endpoint but OpenAI's.
   */
  deepseek: {
    baseURL: "https://api.deepseek.com",
    apiKeyEnv: "DEEPSEEK_API_KEY",
    requiresKey: true,
    toolChoiceSupport: all,
    supportsStructuredOutput: false,
  },
  /**
   * Together AI. Docs, "Function Calling" (docs.together.ai/docs/inference/function-calling/single-call):
   * `tool_choice` `auto`, `none`, `required` or a named function, on the function-calling models;
   * "JSON Mode" (docs.together.ai/docs/json-mode): a schema on the listed models only, so not declared.
   */
  together: {
    baseURL: "https://api.together.xyz/v1",
    apiKeyEnv: "TOGETHER_API_KEY",
    requiresKey: true,
    toolChoiceSupport: all,
    supportsStructuredOutput: false,
  },
  /**
   * Gemini's OpenAI-compatible endpoint (ai.google.dev/gemini-api/docs/openai): `tool_choice` `auto`,
   * `none`, `required` or a named function, and `response_format` json_schema. A tool call carries
   * its thought signature in `extra_content.google.thought_signature`, which OpenAIChatModel keeps
   * on the call and sends back with it (Gemini 3 refuses a tool-call turn without it). For thinking,
   * usage details and Vertex AI, `GoogleChatModel` (keelson/google) speaks Gemini's own API.
   */
  gemini: {
    baseURL: "https://generativelanguage.googleapis.com/v1beta/openai",
    apiKeyEnv: "GEMINI_API_KEY",
    requiresKey: true,
    toolChoiceSupport: all,
    supportsStructuredOutput: true,
    // Gemini 2.5 refuses function calling with a JSON response mime type in one request.
    supportsResponseFormatWithTools: false,
  },
} as const satisfies Record<string, OpenAICompatiblePreset>;

/** The name of an OpenAI-compatible server `createChatModel` knows. */
export type OpenAICompatibleServer = keyof typeof openAICompatiblePresets;

/** An OpenAIChatModel on a named OpenAI-compatible server: its `providerId` is the server's name. */
class OpenAICompatibleChatModel extends OpenAIChatModel {
  override readonly providerId: string;

  constructor(server: OpenAICompatibleServer, modelId: string, options: OpenAIChatModelOptions) {
    super(modelId, options);
    this.providerId = server;
  }
}

/**
 * An `OpenAIChatModel` for a named server: its base URL (`options.baseURL` wins), its key from
 * `options.apiKey` or the server's own variable — never `OPENAI_API_KEY`, which must not travel to
 * another provider — and its profile, under any capability option given.
 */
export function createOpenAICompatibleModel(
  server: OpenAICompatibleServer,
  modelId: string,
  options: OpenAIChatModelOptions = {},
): OpenAIChatModel {
  const preset: OpenAICompatiblePreset = openAICompatiblePresets[server];
  const apiKey = options.apiKey ?? envValue(preset.apiKeyEnv);
  if (apiKey === undefined && preset.requiresKey && options.client === undefined) {
    throw new TypeError(`${server}:${modelId} needs an API key: pass { apiKey } or set ${preset.apiKeyEnv}.`);
  }
  return new OpenAICompatibleChatModel(server, modelId, {
    toolChoiceSupport: preset.toolChoiceSupport,
    supportsStructuredOutput: preset.supportsStructuredOutput,
    supportsResponseFormatWithTools: preset.supportsResponseFormatWithTools ?? true,
    ...definedFields(options),
    baseURL: options.baseURL ?? preset.baseURL,
    // A local server started without a key takes any: say so rather than fall back to OPENAI_API_KEY.
    apiKey: apiKey ?? "not-needed",
  });
}

function envValue(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === "" ? undefined : value;
}
