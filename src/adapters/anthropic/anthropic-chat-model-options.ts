import type { ChatModelOptions } from "../../core/model/chat-model-options.js";

/**
 * An `Anthropic` client of the `@anthropic-ai/sdk` package, seen structurally: keelson's types never
 * import an SDK, so they compile where it is not installed (`skipLibCheck: false`).
 */
export interface AnthropicClientLike {
  baseURL: string;
  messages: { create(...args: never[]): unknown };
}

export interface AnthropicChatModelOptions extends ChatModelOptions {
  /** @default process.env.ANTHROPIC_API_KEY */
  apiKey?: string | undefined;
  /** @default process.env.ANTHROPIC_BASE_URL ?? "https://api.anthropic.com" */
  baseURL?: string | undefined;
  /** Extra headers sent with every request (an `anthropic-beta` flag, say). @default none */
  headers?: Record<string, string> | undefined;
  /**
   * `max_tokens` for a call whose `parameters.maxTokens` is unset: the Messages API requires one.
   * @default 4096
   */
  defaultMaxTokens?: number | undefined;
  /**
   * A ready `@anthropic-ai/sdk` client, used as it is (`apiKey`, `baseURL` and `headers` are then
   * ignored). Its own retries are turned off per request: keelson owns the retries.
   * @default a client built from the options above, with `maxRetries: 0`
   */
  client?: AnthropicClientLike | undefined;
}
