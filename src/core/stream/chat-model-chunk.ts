import type { ToolCall } from "../messages.js";
import type { FinishReason } from "../output.js";
import type { Usage } from "../usage.js";

/**
 * The pieces of a streamed reply. Adapters yield `text-delta`, `reasoning-delta`,
 * `tool-call-delta` (arguments as string fragments, merged by index), `tool-call` (a whole call,
 * as Ollama sends it), `usage` and `finish`. Callers also receive `tool-call` chunks for every
 * validated call at the end, and `reset` when keelson re-asks the model (discard what came before).
 * A reasoning block ends at its `signature` or its `id` (an OpenAI Responses reasoning item's); a
 * redacted one (`redactedData`) comes in one chunk. A tool call's `signature` (Gemini's thought
 * signature) comes on any of its chunks and stays on the call.
 */
export type ChatModelChunk =
  | { type: "text-delta"; text: string }
  | { type: "reasoning-delta"; text: string; signature?: string; redactedData?: string; id?: string }
  | { type: "tool-call-delta"; index: number; id?: string; name?: string; argsDelta?: string; signature?: string }
  | { type: "tool-call"; toolCall: ToolCall }
  | { type: "usage"; usage: Partial<Usage> }
  | { type: "finish"; finishReason: FinishReason; usage?: Partial<Usage>; raw?: unknown }
  | { type: "reset"; reason: string };

/** A piece of the reply as it is written (what `newToken` carries), not a closing or control chunk. */
export function isDelta(chunk: ChatModelChunk): boolean {
  return chunk.type === "text-delta" || chunk.type === "reasoning-delta" || chunk.type === "tool-call-delta";
}
