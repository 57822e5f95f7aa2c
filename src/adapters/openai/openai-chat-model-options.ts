import type { ChatModelOptions } from "../../core/model/chat-model-options.js";
import type { MaxTokensField } from "./to-openai-request.js";

/**
 * An `OpenAI` (or `AzureOpenAI`) client of the `openai` package, seen structurally: keelson's
 * types never import an SDK, so they compile where it is not installed (`skipLibCheck: false`).
 */
export interface OpenAIClientLike {
  baseURL: string;
  chat: { completions: { create(...args: never[]): unknown } };
}

export interface OpenAIChatModelOptions extends ChatModelOptions {
  /** @default process.env.OPENAI_API_KEY */
  apiKey?: string | undefined;
  /**
   * An OpenAI-compatible endpoint (a gateway, vLLM, LiteLLM, …). A custom one drops `"required"`
   * from the default `toolChoiceSupport`, since many gateways refuse it; pass `toolChoiceSupport` to keep it.
   * @default process.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1"
   */
  baseURL?: string | undefined;
  /** @default process.env.OPENAI_ORG_ID */
  organization?: string | undefined;
  /** Extra headers sent with every request. @default none */
  headers?: Record<string, string> | undefined;
  /**
   * A ready `OpenAI` client from the `openai` package, used as it is (`apiKey`, `baseURL`, `organization` and `headers` are
   * then ignored). Its own retries are turned off per request: keelson owns the retries, and the
   * SDK's would multiply them and hide each attempt. An ES-module app that imports `openai` itself passes its
   * client here: keelson's own is built from the SDK's CommonJS build, a second copy beside the app's.
   * @default a client built from the options above
   */
  client?: OpenAIClientLike | undefined;
  /**
   * The body field that carries `parameters.maxTokens`. OpenAI deprecated `max_tokens`, and its
   * reasoning models refuse it; most OpenAI-compatible servers know only `max_tokens`.
   * @default "max_completion_tokens" on api.openai.com, "max_tokens" on any other baseURL
   */
  maxTokensField?: MaxTokensField | undefined;
  /**
   * Send the reasoning of an assistant turn that made tool calls back, as OpenAI-compatible reasoning
   * servers require (DeepSeek's thinking mode and Kimi K2 answer 400 without it): as
   * `reasoning_content`, or as `reasoning` once the server's replies carry it there (Ollama's /v1 and
   * OpenRouter read no other). OpenAI's own API takes no reasoning back. A server that refuses the
   * field (Groq, Cerebras) gets it no more after its first refusal, and that request goes again at once without it.
   * @default true on any baseURL but OpenAI's (and Azure's)
   */
  sendReasoningContent?: boolean | undefined;
}
