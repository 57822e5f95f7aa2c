import type { ChatModelInput } from "../input.js";
import { isPlainObject } from "../schema/json-schema.js";
import type { CallShape } from "./call-shape.js";
import { shapeCall } from "./call-shape.js";
import type { CallSettings } from "./prepare-call.js";
import type { ToolIndex } from "./tool-index.js";

/** What a shape was made from: the call's fields and the model's settings, as they were then. */
interface ShapeSource {
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
  providerId: string;
  modelId: string;
  support: ReadonlySet<string>;
  supportModes: number;
  supportsToolCalling: boolean;
  supportsStructuredOutput: boolean;
  supportsTopLevelUnion: boolean;
  strictResponseFormat: boolean;
  toolCallFallbackViaResponseFormat: boolean;
  allowParallelToolCalls: boolean;
  ignoreParallelToolCalls: boolean;
  fixInvalidToolCalls: boolean;
  recoverTextToolCallsOnAuto: boolean;
  retryOnEmptyResponse: boolean;
}

/**
 * A model's last call shape, reused while a call repeats what it was made from. Agents call with the
 * same tools, tool_choice and response format turn after turn, and the ladder's plan, the rules and
 * the union schema's key were rebuilt for each. Anything the shape reads makes a new one when it
 * differs: another tools array or a tool changed in place (the tool index), another tool_choice,
 * fallback tool or response format (or one of their names or schemas changed in place), a model
 * setting assigned, or its toolChoiceSupport replaced or changed in place.
 */
export class CallShapes {
  #source: ShapeSource | undefined;
  #shape: CallShape | undefined;

  shape(input: ChatModelInput, index: ToolIndex, settings: CallSettings, modelClass: string): CallShape {
    const source = this.#source;
    if (source !== undefined && sameSource(source, input, index, settings)) return this.#shape!;
    // Made before it is kept: a call that throws here leaves the last good shape in place.
    const shape = shapeCall(input, index, settings, modelClass);
    this.#source = sourceOf(input, index, settings);
    this.#shape = shape;
    return shape;
  }
}

function sourceOf(input: ChatModelInput, index: ToolIndex, settings: CallSettings): ShapeSource {
  const format = plainFormat(input.responseFormat);
  return {
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
    providerId: settings.providerId,
    modelId: settings.modelId,
    support: settings.toolChoiceSupport,
    supportModes: supportModes(settings.toolChoiceSupport),
    supportsToolCalling: settings.supportsToolCalling,
    supportsStructuredOutput: settings.supportsStructuredOutput,
    supportsTopLevelUnion: settings.supportsTopLevelUnion,
    strictResponseFormat: settings.strictResponseFormat,
    toolCallFallbackViaResponseFormat: settings.toolCallFallbackViaResponseFormat,
    allowParallelToolCalls: settings.allowParallelToolCalls,
    ignoreParallelToolCalls: settings.ignoreParallelToolCalls,
    fixInvalidToolCalls: settings.fixInvalidToolCalls,
    recoverTextToolCallsOnAuto: settings.recoverTextToolCallsOnAuto,
    retryOnEmptyResponse: settings.retryOnEmptyResponse,
  };
}

function sameSource(source: ShapeSource, input: ChatModelInput, index: ToolIndex, settings: CallSettings): boolean {
  if (
    source.index !== index ||
    source.toolChoice !== input.toolChoice ||
    source.toolChoiceName !== nameOf(input.toolChoice) ||
    source.parallelToolCalls !== input.parallelToolCalls ||
    source.fallbackTool !== input.fallbackTool ||
    source.fallbackName !== nameOf(input.fallbackTool) ||
    source.responseFormat !== input.responseFormat
  ) {
    return false;
  }
  const format = plainFormat(input.responseFormat);
  if (format !== undefined && (source.formatType !== format.type || source.formatName !== format.name || source.formatSchema !== format.schema)) {
    return false;
  }
  return (
    source.providerId === settings.providerId &&
    source.modelId === settings.modelId &&
    source.support === settings.toolChoiceSupport &&
    source.supportModes === supportModes(settings.toolChoiceSupport) &&
    source.supportsToolCalling === settings.supportsToolCalling &&
    source.supportsStructuredOutput === settings.supportsStructuredOutput &&
    source.supportsTopLevelUnion === settings.supportsTopLevelUnion &&
    source.strictResponseFormat === settings.strictResponseFormat &&
    source.toolCallFallbackViaResponseFormat === settings.toolCallFallbackViaResponseFormat &&
    source.allowParallelToolCalls === settings.allowParallelToolCalls &&
    source.ignoreParallelToolCalls === settings.ignoreParallelToolCalls &&
    source.fixInvalidToolCalls === settings.fixInvalidToolCalls &&
    source.recoverTextToolCallsOnAuto === settings.recoverTextToolCallsOnAuto &&
    source.retryOnEmptyResponse === settings.retryOnEmptyResponse
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

/** The modes a support set holds, as bits: a set changed in place (same object) reads differently. */
function supportModes(support: ReadonlySet<string>): number {
  return (support.has("auto") ? 1 : 0) | (support.has("none") ? 2 : 0) | (support.has("required") ? 4 : 0) | (support.has("single") ? 8 : 0);
}
