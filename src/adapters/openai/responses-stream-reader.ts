import type { Response, ResponseStreamEvent } from "openai/resources/responses/responses";
import { ProviderError } from "../../core/errors/provider-error.js";
import {
  optionalRecord,
  optionalString,
  readingEvent,
  requiredIndex,
  requiredRecord,
  requiredString,
} from "../../core/reply-fields.js";
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
    return readingEvent(this.#source, event, (type, raw) => this.#read(type, raw));
  }

  /** One event, each field it reads checked: a missing or misshapen one is an unreadableReply naming the event and field. */
  #read(type: string, event: Record<string, unknown>): ChatModelChunk[] {
    const source = this.#source;
    const at = (field: string) => `${type} event's ${field}`;
    switch (type) {
      case "response.output_text.delta": {
        const text = requiredString(event.delta, at("delta"), source);
        return text === "" ? [] : [{ type: "text-delta", text }];
      }
      case "response.reasoning_summary_part.added": {
        const index =
          event.summary_index === undefined ? 0 : requiredIndex(event.summary_index, at("summary_index"), source);
        return index > 0 ? [{ type: "reasoning-delta", text: "\n\n" }] : [];
      }
      case "response.reasoning_summary_text.delta": {
        const text = requiredString(event.delta, at("delta"), source);
        return text === "" ? [] : [{ type: "reasoning-delta", text }];
      }
      case "response.output_item.added": {
        const item = requiredRecord(event.item, at("item"), source);
        if (requiredString(item.type, at("item.type"), source) !== "function_call") return [];
        const index = requiredIndex(event.output_index, at("output_index"), source);
        const id = requiredString(item.call_id, at("item.call_id"), source);
        const name = requiredString(item.name, at("item.name"), source);
        this.#calledTools = true;
        return [{ type: "tool-call-delta", index, id, name }];
      }
      case "response.function_call_arguments.delta": {
        const index = requiredIndex(event.output_index, at("output_index"), source);
        return [{ type: "tool-call-delta", index, argsDelta: requiredString(event.delta, at("delta"), source) }];
      }
      case "response.output_item.done": {
        const item = requiredRecord(event.item, at("item"), source);
        if (requiredString(item.type, at("item.type"), source) !== "reasoning") return [];
        const part = reasoningPartOf(item, source, at("item"));
        return [
          { type: "reasoning-delta", text: "", id: part.id!, ...(part.signature ? { signature: part.signature } : {}) },
        ];
      }
      case "response.completed":
      case "response.incomplete": {
        const response = requiredRecord(event.response, at("response"), source);
        this.#finished = true;
        return [this.#finish(response, at("response"))];
      }
      case "response.failed":
        throw this.#failure(requiredRecord(event.response, at("response"), source), at("response"));
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

  #finish(response: Record<string, unknown>, path: string): ChatModelChunk {
    const source = this.#source;
    const status = optionalString(response.status, `${path}.status`, source);
    const details = optionalRecord(response.incomplete_details, `${path}.incomplete_details`, source);
    return {
      type: "finish",
      finishReason: responsesFinishReason(
        { status, incomplete_details: details } as Pick<Response, "status" | "incomplete_details">,
        this.#calledTools,
      ),
      usage: readResponsesUsage(optionalRecord(response.usage, `${path}.usage`, source)),
      raw: {
        id: response.id,
        model: response.model,
        status: response.status,
        incomplete_details: response.incomplete_details,
      },
    };
  }

  #failure(response: Record<string, unknown>, path: string): ProviderError {
    const source = this.#source;
    const error = optionalRecord(response.error, `${path}.error`, source);
    const code = typeof error?.code === "string" ? error.code : undefined;
    const message = typeof error?.message === "string" ? error.message : "no reason given";
    return new ProviderError(`${this.#providerId} ${this.#modelId}: the response failed: ${message}`, {
      providerId: this.#providerId,
      modelId: this.#modelId,
      reason: "server",
      ...(code ? { code } : {}),
    });
  }

  get #source(): { providerId: string; modelId: string } {
    return { providerId: this.#providerId, modelId: this.#modelId };
  }
}
