import type { APIError } from "openai";
import type { ProviderOutput, ProviderToolCall } from "../../core/output.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import { isRecord } from "../../core/reply-fields.js";
import { safeJSONParse } from "../../internal/safe-json.js";

/**
 * The model's own reply inside a 400 `tool_use_failed` (Groq), as the output it is: Groq checks the
 * model's tool call itself and answers 400 with the sampled text as `failed_generation` when the
 * call misses the schema, or when `tool_choice: "required"` got no call ("Tool choice is required,
 * but model did not call a tool"). That is the model's mistake, not the request's: given back as
 * the reply (a `{ name, arguments }` text as that tool call, anything else as text), the base class
 * validates it, finds what Groq found, and re-asks with guidance within `maxRepairAttempts`, as for
 * any invalid tool call. Any other error: undefined.
 */
export function failedGeneration(error: unknown): ProviderOutput | undefined {
  const { status, code, error: body } = (error ?? {}) as Partial<APIError>;
  if (status !== 400 || code !== "tool_use_failed" || !isRecord(body)) return undefined;
  const generation = body.failed_generation;
  if (typeof generation !== "string") return undefined;
  const calls = callsIn(generation);
  return {
    text: calls.length > 0 ? "" : generation,
    reasoning: "",
    toolCalls: calls,
    finishReason: calls.length > 0 ? "tool-calls" : "stop",
    raw: body,
  };
}

/** A failed generation that is a tool call (`{ name, arguments }`, or a list of them) as those calls. */
function callsIn(generation: string): ProviderToolCall[] {
  let parsed: unknown;
  try {
    parsed = safeJSONParse(generation);
  } catch {
    return [];
  }
  const items = Array.isArray(parsed) ? parsed : [parsed];
  const calls: ProviderToolCall[] = [];
  for (const item of items) {
    if (!isRecord(item) || typeof item.name !== "string") return [];
    calls.push({ name: item.name, args: item.arguments ?? item.parameters ?? {} });
  }
  return calls;
}

/** The same reply as the chunks a stream would have carried. */
export function failedGenerationChunks(output: ProviderOutput): ChatModelChunk[] {
  const chunks: ChatModelChunk[] = [];
  if (output.text) chunks.push({ type: "text-delta", text: output.text });
  (output.toolCalls ?? []).forEach((call, index) =>
    chunks.push({
      type: "tool-call-delta",
      index,
      name: call.name,
      argsDelta: typeof call.args === "string" ? call.args : JSON.stringify(call.args),
    }),
  );
  chunks.push({ type: "finish", finishReason: output.finishReason ?? "stop", raw: output.raw });
  return chunks;
}
