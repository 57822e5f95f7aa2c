import type { Response, ResponseStreamEvent } from "openai/resources/responses/responses";
import { ProviderError } from "../../core/errors/provider-error.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import { reasoningPartOf, readResponsesUsage, responsesFinishReason } from "./read-responses-output.js";

/**
 * Responses API stream events → keelson chunks. Text and reasoning-summary deltas stream as they
 * come (a blank line between two summary parts of an item); a reasoning item ends, when its
 * `output_item.done` arrives, with a chunk carrying its id and `encrypted_content`, so the message
 * keeps it as one part. A `function_call` item's `output_item.added` gives the call its id and name
 * (index = the item's output index) and its argument deltas follow. `response.completed` and
 * `response.incomplete` carry the usage and the finish; `response.failed` is the provider's error.
 * A stream that ends without one of them was cut short: a retryable network ProviderError.
 */
export class ResponsesStreamReader {
  readonly #providerId: string;
  readonly #modelId: string;
  #calledTools = false;
  #finished = false;

  constructor(context: { providerId: string; modelId: string }) {
    this.#providerId = context.providerId;
    this.#modelId = context.modelId;
  }

  toChunks(event: ResponseStreamEvent): ChatModelChunk[] {
    switch (event.type) {
      case "response.output_text.delta":
        return event.delta === "" ? [] : [{ type: "text-delta", text: event.delta }];
      case "response.reasoning_summary_part.added":
        return event.summary_index > 0 ? [{ type: "reasoning-delta", text: "\n\n" }] : [];
      case "response.reasoning_summary_text.delta":
        return event.delta === "" ? [] : [{ type: "reasoning-delta", text: event.delta }];
      case "response.output_item.added":
        if (event.item.type !== "function_call") return [];
        this.#calledTools = true;
        return [{ type: "tool-call-delta", index: event.output_index, id: event.item.call_id, name: event.item.name }];
      case "response.function_call_arguments.delta":
        return [{ type: "tool-call-delta", index: event.output_index, argsDelta: event.delta }];
      case "response.output_item.done": {
        if (event.item.type !== "reasoning") return [];
        const part = reasoningPartOf(event.item);
        return [
          { type: "reasoning-delta", text: "", id: part.id!, ...(part.signature ? { signature: part.signature } : {}) },
        ];
      }
      case "response.completed":
      case "response.incomplete":
        this.#finished = true;
        return [this.#finish(event.response)];
      case "response.failed":
        throw this.#failure(event.response);
      default:
        return [];
    }
  }

  end(): ChatModelChunk[] {
    if (!this.#finished) {
      throw new ProviderError(
        `${this.#providerId} ${this.#modelId}: the stream ended before its response.completed event.`,
        { providerId: this.#providerId, modelId: this.#modelId, reason: "network" },
      );
    }
    return [];
  }

  #finish(response: Response): ChatModelChunk {
    return {
      type: "finish",
      finishReason: responsesFinishReason(response, this.#calledTools),
      usage: readResponsesUsage(response.usage),
      raw: {
        id: response.id,
        model: response.model,
        status: response.status,
        incomplete_details: response.incomplete_details,
      },
    };
  }

  #failure(response: Response): ProviderError {
    const code = response.error?.code;
    return new ProviderError(
      `${this.#providerId} ${this.#modelId}: the response failed: ${response.error?.message ?? "no reason given"}`,
      { providerId: this.#providerId, modelId: this.#modelId, reason: "server", ...(code ? { code } : {}) },
    );
  }
}
