import { messageText } from "../messages.js";
import type { ProviderOutput } from "../output.js";
import type { ChatModelChunk } from "../stream/chat-model-chunk.js";
import type { ChatModelMiddleware } from "./chat-model-middleware.js";

export interface ExtractReasoningOptions {
  /** The tag the model writes its reasoning in, without angle brackets. @default "think" */
  tagName?: string;
}

/**
 * Reasoning a model writes into its text (`<think>…</think>`, as Qwen3 and DeepSeek-R1 do on
 * several servers) becomes the reply's `reasoning`, and the text keeps only the answer. In a stream
 * the block arrives as `reasoning-delta` chunks, however the tags are split between chunks. A block
 * still open when the reply ends is reasoning to its end.
 */
export function extractReasoningMiddleware({ tagName = "think" }: ExtractReasoningOptions = {}): ChatModelMiddleware {
  if (typeof tagName !== "string" || !/^[A-Za-z][\w:.-]*$/.test(tagName)) {
    throw new TypeError(
      `extractReasoningMiddleware: tagName must be a tag name such as "think", got ${String(tagName)}.`,
    );
  }
  return {
    name: "extractReasoningMiddleware",
    async wrapCreate({ next }) {
      const output = await next();
      const text = output.text ?? (output.message ? messageText(output.message) : undefined);
      if (!text?.includes(`<${tagName}>`)) return output;
      const splitter = new TagSplitter(tagName);
      const parts = [...splitter.push(text), ...splitter.end()];
      const reasoning = parts.flatMap((part) => (part.type === "reasoning-delta" ? [part.text] : [])).join("");
      const answer = parts.flatMap((part) => (part.type === "text-delta" ? [part.text] : [])).join("");
      return withReasoning({ ...output, text: answer }, reasoning);
    },
    async *wrapStream({ next }) {
      const splitter = new TagSplitter(tagName);
      for await (const chunk of next()) {
        if (chunk.type === "text-delta") {
          yield* splitter.push(chunk.text);
          continue;
        }
        // What was held back (a possible tag's start) goes before anything that is not text.
        yield* splitter.flush();
        yield chunk;
      }
      yield* splitter.end();
    },
  };
}

/** The extracted reasoning added after what the provider reported as reasoning. */
function withReasoning(output: ProviderOutput, reasoning: string): ProviderOutput {
  if (reasoning === "") return output;
  if (output.reasoningParts) {
    return { ...output, reasoningParts: [...output.reasoningParts, { type: "reasoning", text: reasoning }] };
  }
  return { ...output, reasoning: output.reasoning ? `${output.reasoning}\n${reasoning}` : reasoning };
}

type Part = Extract<ChatModelChunk, { type: "text-delta" | "reasoning-delta" }>;

/** Splits text, given in pieces, into what is inside `<tag>…</tag>` (reasoning) and what is not (text). */
class TagSplitter {
  private inside = false;
  /** Text not yet given out: it may be the start of the tag looked for. */
  private held = "";
  /** After a block closes, the whitespace that separated it from the answer is dropped. */
  private afterBlock = false;
  private readonly open: string;
  private readonly close: string;

  constructor(tagName: string) {
    this.open = `<${tagName}>`;
    this.close = `</${tagName}>`;
  }

  push(text: string): Part[] {
    const parts: Part[] = [];
    let buffer = this.held + text;
    for (;;) {
      const tag = this.inside ? this.close : this.open;
      const at = buffer.indexOf(tag);
      if (at >= 0) {
        this.give(parts, buffer.slice(0, at));
        buffer = buffer.slice(at + tag.length);
        this.inside = !this.inside;
        if (!this.inside) this.afterBlock = true;
        continue;
      }
      const keep = partialTagLength(buffer, tag);
      this.give(parts, buffer.slice(0, buffer.length - keep));
      this.held = buffer.slice(buffer.length - keep);
      return parts;
    }
  }

  /** What was held back, given out as it stands (before a chunk that is not text). */
  flush(): Part[] {
    const parts: Part[] = [];
    this.give(parts, this.held);
    this.held = "";
    return parts;
  }

  end(): Part[] {
    return this.flush();
  }

  private give(parts: Part[], text: string): void {
    if (!this.inside && this.afterBlock) {
      text = text.trimStart();
      if (text === "") return;
      this.afterBlock = false;
    }
    if (text !== "") parts.push({ type: this.inside ? "reasoning-delta" : "text-delta", text });
  }
}

/** How many characters at the end of `text` could be the start of `tag`. */
function partialTagLength(text: string, tag: string): number {
  for (let length = Math.min(tag.length - 1, text.length); length > 0; length--) {
    if (tag.startsWith(text.slice(text.length - length))) return length;
  }
  return 0;
}
