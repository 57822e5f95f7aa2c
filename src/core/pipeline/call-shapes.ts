import type { ChatModelInput } from "../input.js";
import { isPlainObject } from "../schema/json-schema.js";
import type { CallShape } from "./call-shape.js";
import { shapeCall } from "./call-shape.js";
import type { CallSettings } from "./prepare-call.js";
import type { ToolIndex } from "./tool-index.js";

/** What a shape was made from: the call's fields and the model's settings, as they were then. */
interface ShapeSource {
  shape: CallShape;
  index: ToolIndex;
  toolChoice: unknown;
  toolChoiceName: unknown;
  parallelToolCalls: boolean | undefined;
  fallbackTool: unknown;
  fallbackName: unknown;
  responseFormat: unknown;
  formatType: unknown;
  formatName: unknown;
  formatSchema: unknown;
  support: ReadonlySet<string>;
  /** The model's switches and the modes its support set holds, as bits (settingBits). */
  settings: number;
}

/**
 * A model's last call shape, reused while a call repeats what it was made from. Agents call with the
 * same tools, tool_choice and response format turn after turn, and the ladder's plan, the rules and
 * the union schema's key were rebuilt for each. Anything the shape reads makes a new one when it
 * differs: another tools array or a tool changed in place (the tool index), another tool_choice,
 * fallback tool or response format (or one of their names or schemas changed in place), a model
 * setting assigned, or its toolChoiceSupport replaced or changed in place. (The model's providerId
 * and modelId are read-only, and not compared.)
 */
export class CallShapes {
  #last: ShapeSource | undefined;

  shape(input: ChatModelInput, index: ToolIndex, settings: CallSettings, modelClass: string): CallShape {
    const last = this.#last;
    if (last !== undefined && sameSource(last, input, index, settings)) return last.shape;
    // Made before it is kept: a call that throws here leaves the last good shape in place.
    const shape = shapeCall(input, index, settings, modelClass);
    this.#last = sourceOf(shape, input, index, settings);
    return shape;
  }
}

function sourceOf(shape: CallShape, input: ChatModelInput, index: ToolIndex, settings: CallSettings): ShapeSource {
  const format = plainFormat(input.responseFormat);
  return {
    shape,
    index,
    toolChoice: input.toolChoice,
    toolChoiceName: nameOf(input.toolChoice),
    parallelToolCalls: input.parallelToolCalls,
    fallbackTool: input.fallbackTool,
    fallbackName: nameOf(input.fallbackTool),
    responseFormat: input.responseFormat,
    formatType: format?.type,
    formatName: format?.name,
    formatSchema: format?.schema,
    support: settings.toolChoiceSupport,
    settings: settingBits(settings),
  };
}

/** Compact on purpose: this runs on every call, so it reads each field once and compares numbers where it can. */
function sameSource(source: ShapeSource, input: ChatModelInput, index: ToolIndex, settings: CallSettings): boolean {
  const { toolChoice, fallbackTool, responseFormat } = input;
  return (
    source.index === index &&
    source.toolChoice === toolChoice &&
    (typeof toolChoice !== "object" || source.toolChoiceName === nameOf(toolChoice)) &&
    source.parallelToolCalls === input.parallelToolCalls &&
    source.fallbackTool === fallbackTool &&
    (typeof fallbackTool !== "object" || source.fallbackName === nameOf(fallbackTool)) &&
    source.responseFormat === responseFormat &&
    (responseFormat === undefined || sameFormat(source, responseFormat)) &&
    source.support === settings.toolChoiceSupport &&
    source.settings === settingBits(settings)
  );
}

function sameFormat(source: ShapeSource, given: unknown): boolean {
  const format = plainFormat(given);
  return (
    format === undefined ||
    (source.formatType === format.type && source.formatName === format.name && source.formatSchema === format.schema)
  );
}

/** A response format's own fields, when it is a plain object (a wrapper `{ type, name, schema }` or a JSON Schema). */
function plainFormat(format: unknown): { type?: unknown; name?: unknown; schema?: unknown } | undefined {
  return isPlainObject(format) ? format : undefined;
}

/** A tool's (or a `{ type: "tool", name }`'s) name, read afresh: an object renamed in place is another choice. */
function nameOf(value: unknown): unknown {
  return value !== null && typeof value === "object" ? (value as { name?: unknown }).name : undefined;
}

/** The model's switches a shape reads, and the modes its support set holds (a set changed in place reads differently), as bits. */
function settingBits(settings: CallSettings): number {
  const support = settings.toolChoiceSupport;
  return (
    (settings.supportsToolCalling ? 1 : 0) |
    (settings.supportsStructuredOutput ? 2 : 0) |
    (settings.supportsTopLevelUnion ? 4 : 0) |
    (settings.strictResponseFormat ? 8 : 0) |
    (settings.toolCallFallbackViaResponseFormat ? 16 : 0) |
    (settings.allowParallelToolCalls ? 32 : 0) |
    (settings.ignoreParallelToolCalls ? 64 : 0) |
    (settings.fixInvalidToolCalls ? 128 : 0) |
    (settings.recoverTextToolCallsOnAuto ? 256 : 0) |
    (settings.retryOnEmptyResponse ? 512 : 0) |
    (support.has("auto") ? 1024 : 0) |
    (support.has("none") ? 2048 : 0) |
    (support.has("required") ? 4096 : 0) |
    (support.has("single") ? 8192 : 0)
  );
}
