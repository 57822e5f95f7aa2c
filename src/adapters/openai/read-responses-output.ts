import type { Response, ResponseOutputItem, ResponseUsage } from "openai/resources/responses/responses";
import type { ReasoningPart } from "../../core/messages.js";
import type { FinishReason, ProviderOutput, ProviderToolCall } from "../../core/output.js";
import type { Usage } from "../../core/usage.js";

/**
 * A Responses API reply → ProviderOutput. Each `reasoning` item is one reasoning part: its summary
 * texts (joined by a blank line), its item id, and its `encrypted_content` (when asked for) as the
 * signature, so that the item goes back whole on the next turn. Each `function_call` is a tool call
 * whose id is its `call_id`. Other output items (server tools) stay in `raw` only.
 */
export function readResponsesOutput(response: Response): ProviderOutput {
  let text = "";
  let refused = false;
  const reasoningParts: ReasoningPart[] = [];
  const toolCalls: ProviderToolCall[] = [];
  for (const item of response.output ?? []) {
    switch (item.type) {
      case "message":
        for (const content of item.content ?? []) {
          if (content.type === "output_text") text += content.text;
          else if (content.type === "refusal") refused = true;
        }
        break;
      case "reasoning":
        reasoningParts.push(reasoningPartOf(item));
        break;
      case "function_call":
        toolCalls.push({ id: item.call_id, name: item.name, args: item.arguments });
        break;
    }
  }
  return {
    text,
    reasoning: reasoningParts.map((part) => part.text).join(""),
    toolCalls,
    finishReason: refused && text === "" ? "content-filter" : responsesFinishReason(response, toolCalls.length > 0),
    usage: readResponsesUsage(response.usage),
    raw: response,
    ...(reasoningParts.length > 0 ? { reasoningParts } : {}),
  };
}

/** One reasoning item as a reasoning part (see readResponsesOutput). */
export function reasoningPartOf(item: Extract<ResponseOutputItem, { type: "reasoning" }>): ReasoningPart {
  const text = (item.summary ?? []).map((summary) => summary.text).join("\n\n");
  return {
    type: "reasoning",
    text,
    id: item.id,
    ...(item.encrypted_content ? { signature: item.encrypted_content } : {}),
  };
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
export function readResponsesUsage(usage: ResponseUsage | null | undefined): Partial<Usage> {
  if (!usage) return {};
  const result: Partial<Usage> = {
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    totalTokens: usage.total_tokens,
  };
  const reasoning = usage.output_tokens_details?.reasoning_tokens;
  const cached = usage.input_tokens_details?.cached_tokens;
  if (typeof reasoning === "number") result.reasoningTokens = reasoning;
  if (typeof cached === "number") result.cachedInputTokens = cached;
  return result;
}
