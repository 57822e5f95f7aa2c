import type { ReasoningPart } from "../messages.js";
import type { FinishReason, ProviderOutput, ProviderToolCall } from "../output.js";
import type { Usage } from "../usage.js";
import type { ChatModelChunk } from "./chat-model-chunk.js";

interface PendingToolCall {
  id?: string;
  name: string;
  args: string;
  /** A whole call's arguments as the provider sent them (an object), when it came in one piece. */
  whole?: unknown;
  /** The provider's signature of the call (Gemini's `thoughtSignature`). */
  signature?: string;
}

/**
 * Builds a provider output from streamed chunks, once for every adapter: text deltas concatenated,
 * reasoning kept apart, tool-call deltas merged by index (an id or name may come only in the first
 * delta; argument deltas may be empty; calls may interleave), usage taken from the last report.
 */
export class StreamAssembler {
  #text = "";
  #reasoning = "";
  #reasoningSignature: string | undefined;
  /**
   * The reasoning's closed blocks (one ends at its signature; a redacted one comes whole), made
   * only when a block closes: most streams have one unsigned block, which `#reasoning` holds.
   */
  #reasoningParts: ReasoningPart[] | undefined;
  /** Where the open block starts in `#reasoning`. */
  #openPartStart = 0;
  readonly #toolCalls = new Map<number, PendingToolCall>();
  #usage: Partial<Usage> | undefined;
  #finishReason: FinishReason | undefined;
  #raw: unknown;

  add(chunk: ChatModelChunk): void {
    switch (chunk.type) {
      case "text-delta":
        this.#text += chunk.text;
        break;
      case "reasoning-delta":
        if (chunk.redactedData !== undefined) this.#addRedactedPart(chunk.text, chunk.redactedData);
        else {
          this.#reasoning += chunk.text;
          if (chunk.signature || chunk.id !== undefined) this.#closeOpenPart(chunk.signature, chunk.id);
        }
        break;
      case "tool-call-delta":
        this.#addToolCallDelta(chunk);
        break;
      case "tool-call": {
        const index = this.#toolCalls.size === 0 ? 0 : Math.max(...this.#toolCalls.keys()) + 1;
        const { id, name, args, signature } = chunk.toolCall;
        this.#toolCalls.set(
          index,
          signature ? { id, name, args: "", whole: args, signature } : { id, name, args: "", whole: args },
        );
        break;
      }
      case "usage":
        this.#usage = { ...this.#usage, ...chunk.usage };
        break;
      case "finish":
        this.#finishReason = chunk.finishReason;
        if (chunk.usage) this.#usage = { ...this.#usage, ...chunk.usage };
        if (chunk.raw !== undefined) this.#raw = chunk.raw;
        break;
      case "reset":
        break;
    }
  }

  /** The open block, ended by its signature or item id (or, unsigned, by a redacted block after it). */
  #closeOpenPart(signature?: string, id?: string): void {
    const text = this.#reasoning.slice(this.#openPartStart);
    if (signature) this.#reasoningSignature = signature;
    if (signature || id !== undefined || text !== "")
      (this.#reasoningParts ??= []).push({
        type: "reasoning",
        text,
        ...(signature ? { signature } : {}),
        ...(id !== undefined ? { id } : {}),
      });
    this.#openPartStart = this.#reasoning.length;
  }

  #addRedactedPart(text: string, redactedData: string): void {
    this.#closeOpenPart();
    // The first block of a stream may be the redacted one: no closed block made the list yet.
    (this.#reasoningParts ??= []).push({ type: "reasoning", text, redactedData });
    this.#reasoning += text;
    this.#openPartStart = this.#reasoning.length;
  }

  /** Every block, the open one last: only when the stream had more than one, or a redacted one. */
  #allReasoningParts(): ReasoningPart[] | undefined {
    const closed = this.#reasoningParts;
    if (closed === undefined) return undefined;
    const open = this.#reasoning.slice(this.#openPartStart);
    const parts =
      open === ""
        ? closed.map((part) => ({ ...part }))
        : [...closed.map((part) => ({ ...part })), { type: "reasoning" as const, text: open }];
    // One unredacted block without an item id is what `reasoning` and `reasoningSignature` say already.
    return parts.length > 1 || parts.some((part) => part.redactedData !== undefined || part.id !== undefined)
      ? parts
      : undefined;
  }

  #addToolCallDelta(chunk: Extract<ChatModelChunk, { type: "tool-call-delta" }>): void {
    let pending = this.#toolCalls.get(chunk.index);
    if (!pending) {
      pending = { name: "", args: "" };
      this.#toolCalls.set(chunk.index, pending);
    }
    if (chunk.id) pending.id = chunk.id;
    if (chunk.name) pending.name = pending.name && pending.name !== chunk.name ? pending.name + chunk.name : chunk.name;
    if (chunk.argsDelta) pending.args += chunk.argsDelta;
    if (chunk.signature) pending.signature = chunk.signature;
  }

  get text(): string {
    return this.#text;
  }

  /** The finish reason the provider reported, if a `finish` chunk arrived. */
  get finishReason(): FinishReason | undefined {
    return this.#finishReason;
  }

  get hasContent(): boolean {
    return this.#text !== "" || this.#reasoning !== "" || this.#toolCalls.size > 0;
  }

  output(): ProviderOutput {
    const toolCalls: ProviderToolCall[] = [...this.#toolCalls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, call]) =>
        call.signature
          ? { id: call.id, name: call.name, args: call.whole ?? call.args, signature: call.signature }
          : { id: call.id, name: call.name, args: call.whole ?? call.args },
      );
    return {
      text: this.#text,
      reasoning: this.#reasoning,
      toolCalls,
      finishReason: this.#finishReason ?? (toolCalls.length > 0 ? "tool-calls" : "stop"),
      usage: this.#usage,
      raw: this.#raw,
      ...(this.#reasoningSignature ? { reasoningSignature: this.#reasoningSignature } : {}),
      ...withReasoningParts(this.#allReasoningParts()),
    };
  }
}

function withReasoningParts(parts: ReasoningPart[] | undefined): { reasoningParts?: ReasoningPart[] } {
  return parts === undefined ? {} : { reasoningParts: parts };
}
