import type { ChatModel } from "./chat-model.js";
import { checkMiddleware, type ChatModelMiddleware } from "../middleware/chat-model-middleware.js";

/**
 * A copy of `model` (same class, settings and capabilities; its own emitter; the cache shared) with
 * `middleware` around its requests, outside the model's own (the first listed outermost).
 *
 * @example
 * const model = wrapChatModel(new OllamaChatModel("qwen3:8b"), extractReasoningMiddleware(), audit);
 */
export function wrapChatModel<M extends ChatModel>(model: M, ...middleware: ChatModelMiddleware[]): M {
  const copy = model.clone();
  copy.middleware = checkMiddleware([...middleware, ...model.middleware]);
  return copy;
}
