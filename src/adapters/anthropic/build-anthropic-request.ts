import type Anthropic from "@anthropic-ai/sdk";
import type { ProviderInput, ProviderTool, ProviderToolChoice } from "../../core/input.js";
import type { AnthropicCacheControl } from "./anthropic-cache-control.js";
import { cacheControlBlock, readCacheControl } from "./anthropic-cache-control.js";
import { convertToAnthropicMessages } from "./convert-to-anthropic-messages.js";
import { carriesNoContent, placeCachePoints, type CachePoints } from "../../core/prompt-cache/place-cache-points.js";

const jsonInstruction = "Answer with only a JSON value, and nothing else.";

interface SamplingFields {
  temperature?: number;
  top_p?: number;
  top_k?: number;
}

/** A Messages API request body, streaming or not. */
export type AnthropicRequest = Anthropic.MessageCreateParamsNonStreaming | Anthropic.MessageCreateParamsStreaming;

/**
 * One Messages API body from what the base class settled. Absent input fields are not sent, but
 * `max_tokens` always is (Anthropic requires it). Tools travel with every tool_choice, `none`
 * included (Anthropic honours it natively); `parallelToolCalls: false` is
 * `disable_parallel_tool_use`. A JSON-schema response format (for a model built with
 * `supportsStructuredOutput: true`) is `output_config.format`. `providerOptions.cacheControl` marks prompt-cache breakpoints (see
 * `AnthropicCacheControl`); every other `providerOptions` field (`thinking`, `metadata`, a
 * top-level `cache_control`, …) is merged into the body last, one level deep.
 */
export function buildAnthropicRequest<S extends boolean>(
  modelId: string,
  input: ProviderInput,
  defaultMaxTokens: number,
  stream: S,
): AnthropicRequest & { stream: S } {
  const { cacheControl: rawCacheControl, ...extra } = input.providerOptions ?? {};
  const cacheControl = readCacheControl(rawCacheControl);
  const withTools = input.tools !== undefined && input.tools.length > 0;
  const points = input.promptCache === "auto" ? autoCachePoints(input, cacheControl, withTools) : undefined;
  const { system, messages } = convertToAnthropicMessages(input.messages, {
    toolBlocks: withTools,
    cacheBreakpoints: messageBreakpoints(cacheControl, input.messages.length, points),
  });
  if (input.responseFormat?.type === "json") system.push({ type: "text", text: jsonInstruction });
  const { maxTokens, temperature, topP, topK, stop } = input.parameters;
  // The SDK's types no longer list the sampling fields, which older Claude models take: they are sent
  // when the call sets them, and a model that refuses one says so in a 400.
  const body: Anthropic.MessageCreateParamsNonStreaming & SamplingFields = {
    model: modelId,
    max_tokens: maxTokens ?? defaultMaxTokens,
    messages,
  };
  if (system.length > 0) {
    if (cacheControl?.system) system[system.length - 1]!.cache_control = cacheControlBlock(cacheControl);
    body.system = system;
  }
  if (temperature !== undefined) body.temperature = temperature;
  if (topP !== undefined) body.top_p = topP;
  if (topK !== undefined) body.top_k = topK;
  if (stop !== undefined && stop.length > 0) body.stop_sequences = stop;
  if (withTools) {
    body.tools = markTools(
      input.tools!.map(toAnthropicTool),
      points?.tools ? { ...cacheControl, tools: true } : cacheControl,
    );
    const toolChoice = toAnthropicToolChoice(input.toolChoice, input.parallelToolCalls);
    if (toolChoice) body.tool_choice = toolChoice;
  }
  if (input.responseFormat?.type === "json-schema") {
    body.output_config = { format: { type: "json_schema", schema: input.responseFormat.schema as never } };
  }
  const request = mergeProviderOptions(body, extra) as AnthropicRequest & { stream: S };
  request.stream = stream;
  return request;
}

/** `providerOptions` merged over the body, one level deep (`output_config: { effort }` keeps keelson's `format`). */
function mergeProviderOptions(body: object, options: Record<string, unknown>): object {
  if (Object.keys(options).length === 0) return body;
  // Spread (not assigned) so a `__proto__` key stays a plain field.
  const merged: Record<string, unknown> = { ...body };
  for (const [key, value] of Object.entries(options)) {
    const current = merged[key];
    merged[key] = isPlainObject(current) && isPlainObject(value) ? { ...current, ...value } : value;
  }
  return merged;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function toAnthropicTool(tool: ProviderTool): Anthropic.Tool {
  return {
    name: tool.name,
    ...(tool.description === undefined || tool.description === "" ? {} : { description: tool.description }),
    input_schema: tool.parameters as Anthropic.Tool.InputSchema,
  };
}

/** The tools, with a breakpoint on those `cacheControl.tools` names (each marked one a copy). */
function markTools(tools: Anthropic.Tool[], cacheControl: AnthropicCacheControl | undefined): Anthropic.Tool[] {
  const marked = cacheControl?.tools;
  if (!marked || (Array.isArray(marked) && marked.length === 0)) return tools;
  const value = cacheControlBlock(cacheControl);
  return tools.map((tool, index) =>
    (marked === true ? index === tools.length - 1 : (marked as readonly string[]).includes(tool.name))
      ? { ...tool, cache_control: value }
      : tool,
  );
}

function messageBreakpoints(
  cacheControl: AnthropicCacheControl | undefined,
  count: number,
  points: CachePoints | undefined,
) {
  const positions = callerPositions(cacheControl, count);
  if (points?.system !== undefined) positions.add(points.system);
  if (points?.message !== undefined) positions.add(points.message);
  if (positions.size === 0) return undefined;
  return { positions, value: cacheControlBlock(cacheControl ?? {}) };
}

/** The message positions the caller's `cacheControl.messages` mark, in range. */
function callerPositions(cacheControl: AnthropicCacheControl | undefined, count: number): Set<number> {
  const positions = new Set<number>();
  for (const position of cacheControl?.messages ?? []) {
    const index = position < 0 ? count + position : position;
    if (index >= 0 && index < count) positions.add(index);
  }
  return positions;
}

/** `promptCache: "auto"`'s breakpoints (placed by core), around the caller's own `cacheControl`. */
function autoCachePoints(
  input: ProviderInput,
  cacheControl: AnthropicCacheControl | undefined,
  withTools: boolean,
): CachePoints {
  const marked = cacheControl?.tools;
  const names = new Set(input.tools?.map((tool) => tool.name));
  const markedTools =
    marked === true
      ? withTools
        ? 1
        : 0
      : Array.isArray(marked)
        ? new Set(marked.filter((name) => names.has(name))).size
        : 0;
  return placeCachePoints(input.messages, {
    tools: withTools,
    caller: {
      // Counted even without a system message: the JSON instruction may be the block it marks.
      system: cacheControl?.system === true,
      tools: withTools ? markedTools : 0,
      messages: callerPositions(cacheControl, input.messages.length),
    },
    // A message that sends no block (a blank system prompt, empty content, reasoning only) can carry no breakpoint.
    refuses: carriesNoContent,
  });
}

/** keelson's tool_choice in Anthropic's terms: `required` is `any`, one tool is `tool`. */
export function toAnthropicToolChoice(
  choice: ProviderToolChoice | undefined,
  parallelToolCalls: boolean | undefined,
): Anthropic.ToolChoice | undefined {
  if (choice === "none") return { type: "none" };
  const disable = parallelToolCalls === false ? { disable_parallel_tool_use: true } : {};
  if (choice === undefined) return parallelToolCalls === false ? { type: "auto", ...disable } : undefined;
  if (choice === "auto") return { type: "auto", ...disable };
  if (choice === "required") return { type: "any", ...disable };
  return { type: "tool", name: choice.name, ...disable };
}
