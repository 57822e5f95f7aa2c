import type { Response, ResponseUsage } from "openai/resources/responses/responses";
import type { ReasoningPart } from "../../core/messages.js";
import type { FinishReason, ProviderOutput, ProviderToolCall } from "../../core/output.js";
import type { Usage } from "../../core/usage.js";
import type { ReplySource } from "../../core/errors/unreadable-reply.js";
import {
  optionalRecord,
  optionalRecords,
  optionalString,
  readingPart,
  requiredRecord,
  requiredString,
  tokenCount,
} from "../../core/reply-fields.js";

/**
 * A Responses API reply → ProviderOutput. Each `reasoning` item is one reasoning part: its summary
 * texts (joined by a blank line), its item id, and its `encrypted_content` (when asked for) as the
 * signature, so that the item goes back whole on the next turn. Each `function_call` is a tool call
 * whose id is its `call_id`. Other output items (server tools) stay in `raw` only.
 */
export function readResponsesOutput(response: Response, source: ReplySource = unknownSource): ProviderOutput {
  return readingPart(source, "response", () => readResponse(requiredRecord(response, "response", source), source));
}

const unknownSource: ReplySource = { providerId: "openai", modelId: "unknown model" };

function readResponse(response: Record<string, unknown>, source: ReplySource): ProviderOutput {
  let text = "";
  let refused = false;
  const reasoningParts: ReasoningPart[] = [];
  const toolCalls: ProviderToolCall[] = [];
  const items = optionalRecords(response.output, "output", source) ?? [];
  items.forEach((item, index) => {
    const at = (field: string) => `output[${index}].${field}`;
    switch (requiredString(item.type, at("type"), source)) {
      case "message":
        (optionalRecords(item.content, at("content"), source) ?? []).forEach((content, position) => {
          const type = requiredString(content.type, at(`content[${position}].type`), source);
          if (type === "output_text") text += requiredString(content.text, at(`content[${position}].text`), source);
          else if (type === "refusal") refused = true;
        });
        break;
      case "reasoning":
        reasoningParts.push(reasoningPartOf(item, source, `output[${index}]`));
        break;
      case "function_call":
        toolCalls.push({
          id: requiredString(item.call_id, at("call_id"), source),
          name: requiredString(item.name, at("name"), source),
          args: requiredString(item.arguments, at("arguments"), source),
        });
        break;
    }
  });
  const status = optionalString(response.status, "status", source);
  const details = optionalRecord(response.incomplete_details, "incomplete_details", source);
  return {
    text,
    reasoning: reasoningParts.map((part) => part.text).join(""),
    toolCalls,
    finishReason:
      refused && text === ""
        ? "content-filter"
        : responsesFinishReason(
            { status, incomplete_details: details } as Pick<Response, "status" | "incomplete_details">,
            toolCalls.length > 0,
          ),
    usage: readResponsesUsage(optionalRecord(response.usage, "usage", source)),
    raw: response,
    ...(reasoningParts.length > 0 ? { reasoningParts } : {}),
  };
}

/** One reasoning item as a reasoning part (see readResponsesOutput), its fields checked. */
export function reasoningPartOf(item: Record<string, unknown>, source: ReplySource, path: string): ReasoningPart {
  const summaries = optionalRecords(item.summary, `${path}.summary`, source) ?? [];
  const text = summaries
    .map((summary, index) => requiredString(summary.text, `${path}.summary[${index}].text`, source))
    .join("\n\n");
  const id = requiredString(item.id, `${path}.id`, source);
  const signature = optionalString(item.encrypted_content, `${path}.encrypted_content`, source);
  return { type: "reasoning", text, id, ...(signature ? { signature } : {}) };
}

/**
 * A response's `status` as a finish reason: `incomplete` is `length` when the output-token limit
 * cut it (`incomplete_details.reason: max_output_tokens`) and `content-filter` when a filter did;
 * `failed` is `error`; `completed` is `tool-calls` when it called a tool, else `stop`.
 */
export function responsesFinishReason(
  response: Pick<Response, "status" | "incomplete_details">,
  calledTools: boolean,
): FinishReason {
  switch (response.status) {
    case "incomplete":
      return response.incomplete_details?.reason === "content_filter" ? "content-filter" : "length";
    case "failed":
      return "error";
    case "completed":
    case undefined:
      return calledTools ? "tool-calls" : "stop";
    default:
      return "other";
  }
}

/** The Responses usage in keelson's terms (`input_tokens` already counts the cached ones). */
export function readResponsesUsage(usage: Record<string, unknown> | ResponseUsage | null | undefined): Partial<Usage> {
  if (!usage) return {};
  const report = usage as Record<string, unknown>;
  const result: Partial<Usage> = {};
  const counts = {
    inputTokens: tokenCount(report.input_tokens),
    outputTokens: tokenCount(report.output_tokens),
    totalTokens: tokenCount(report.total_tokens),
    reasoningTokens: tokenCount(
      (report.output_tokens_details as { reasoning_tokens?: unknown } | null)?.reasoning_tokens,
    ),
    cachedInputTokens: tokenCount((report.input_tokens_details as { cached_tokens?: unknown } | null)?.cached_tokens),
  };
  for (const [name, count] of Object.entries(counts)) if (count !== undefined) result[name as keyof Usage] = count;
  return result;
}
