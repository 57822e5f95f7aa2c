import type { ChatModelErrorOptions } from "../errors/chat-model-error.js";
import { ChatModelError } from "../errors/chat-model-error.js";

const marker = "keelson.error.ContextOverflowError";
const symbol = Symbol.for(marker);

export interface ContextOverflowErrorOptions extends ChatModelErrorOptions {
  /** The input's tokens: keelson's estimate before a request, the provider's count from its 400 (when it said). */
  inputTokens?: number | undefined;
  /** The model's context window, where known. */
  contextWindow?: number | undefined;
  /** The reply's token budget the call asked for, if any. */
  maxTokens?: number | undefined;
  /** The HTTP status, when the provider refused the request (400, 413). */
  statusCode?: number | undefined;
}

/**
 * The call's input does not fit the model's context window: raised before any request where the
 * window is known (`model.profile.contextWindow`), and for a provider's context-length 400. Never
 * retried (the same input would not fit again): shorten the messages, or use a model with a larger window.
 */
export class ContextOverflowError extends ChatModelError {
  private readonly [symbol] = true;
  readonly inputTokens: number | undefined;
  readonly contextWindow: number | undefined;
  readonly maxTokens: number | undefined;
  readonly statusCode: number | undefined;

  constructor(message: string, options: ContextOverflowErrorOptions = {}) {
    super(message, options);
    this.name = "ContextOverflowError";
    this.inputTokens = options.inputTokens;
    this.contextWindow = options.contextWindow;
    this.maxTokens = options.maxTokens;
    this.statusCode = options.statusCode;
  }

  static override isInstance(error: unknown): error is ContextOverflowError {
    return ChatModelError.hasMarker(error, marker);
  }
}
