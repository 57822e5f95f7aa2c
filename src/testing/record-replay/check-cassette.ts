import { parameterNames } from "../../core/parameters/parameter-name.js";
import { CassetteError } from "./cassette-error.js";

type Check = (value: unknown, field: string) => void;

/**
 * The cassette as read (typed `Checked`: cassette.ts's `Cassette`), checked against the shape RecordingChatModel writes before anything is
 * replayed from it: every field the replay reads has its type (a `toolCalls` that is a string, a
 * chunk without its `type`, an interaction with no answer are each a CassetteError naming the file
 * and the field). Fields it does not read (`raw`) may hold anything.
 */
export function checkCassette<Checked>(value: unknown, source: string): Checked {
  const fail = (field: string, problem: string): never => {
    throw new CassetteError(source, field, problem);
  };
  const shape = (value: unknown): string =>
    value === null ? "null" : Array.isArray(value) ? "an array" : value === undefined ? "missing" : `a ${typeof value}`;
  const record = (value: unknown, field: string): Record<string, unknown> =>
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : fail(field, `is ${shape(value)}, not an object`);
  const array = (value: unknown, field: string): unknown[] =>
    Array.isArray(value) ? value : fail(field, `is ${shape(value)}, not an array`);
  const typed =
    (type: "string" | "number" | "boolean"): Check =>
    (value, field) => {
      if (typeof value !== type || (type === "number" && !Number.isFinite(value)))
        fail(field, `is ${shape(value)}, not a ${type}`);
    };
  const optional =
    (check: Check): Check =>
    (value, field) => {
      if (value !== undefined) check(value, field);
    };
  const string = typed("string");
  const number = typed("number");
  const boolean = typed("boolean");
  const fields = (value: unknown, field: string, checks: Record<string, Check>): Record<string, unknown> => {
    const object = record(value, field);
    for (const [name, check] of Object.entries(checks)) check(object[name], field === "" ? name : `${field}.${name}`);
    return object;
  };
  const each =
    (check: Check): Check =>
    (value, field) =>
      array(value, field).forEach((item, index) => check(item, `${field}[${index}]`));
  const object: Check = (value, field) => void record(value, field);
  const oneOf =
    (values: ReadonlySet<string>): Check =>
    (value, field) => {
      if (typeof value !== "string" || !values.has(value))
        fail(field, `is ${JSON.stringify(value) ?? "missing"}, not one of ${[...values].join(", ")}`);
    };
  const count: Check = (value, field) => {
    if (!Number.isSafeInteger(value) || (value as number) < 0)
      fail(field, `is ${shape(value)}, not a count (0 or more)`);
  };

  const usage = optional(object);
  const toolCall: Check = (value, field) => void fields(value, field, { name: string, id: optional(string) });
  const chunkFields: Record<string, Record<string, Check>> = {
    "text-delta": { text: string },
    "reasoning-delta": {
      text: string,
      signature: optional(string),
      redactedData: optional(string),
      id: optional(string),
    },
    "tool-call-delta": { index: number, id: optional(string), name: optional(string), argsDelta: optional(string) },
    "tool-call": { toolCall: (value, field) => fields(value, field, { id: string, name: string, args: object }) },
    usage: { usage: object },
    finish: { finishReason: string, usage },
    reset: { reason: string },
  };
  const chunk: Check = (value, field) => {
    const type = fields(value, field, { type: string }).type as string;
    const checks = chunkFields[type] ?? fail(`${field}.type`, `is "${type}", not a chunk type keelson writes`);
    fields(value, field, checks);
  };
  const output: Check = (value, field) =>
    void fields(value, field, {
      text: optional(string),
      reasoning: optional(string),
      toolCalls: optional(each(toolCall)),
      finishReason: optional(string),
      usage,
      reasoningParts: optional(each(object)),
    });
  const error: Check = (value, field) =>
    void fields(value, field, {
      message: string,
      name: string,
      statusCode: optional(number),
      code: optional(string),
      reason: optional(string),
      isRetryable: optional(boolean),
      rejectedParameter: optional(object),
    });
  const interaction: Check = (value, field) => {
    const entry = fields(value, field, {
      input: (input, at) => void fields(input, at, { messages: each(object), parameters: optional(object) }),
      output: optional(output),
      chunks: optional(each(chunk)),
      error: optional(error),
    });
    if (entry.output === undefined && entry.chunks === undefined && entry.error === undefined)
      fail(field, "has no answer (no output, chunks or error)");
  };

  const cassette = fields(value, "", {
    providerId: string,
    modelId: string,
    profile: (profile, at) =>
      void fields(profile, at, {
        toolChoiceSupport: each(oneOf(new Set(["auto", "none", "required", "single"]))),
        supportsToolCalling: boolean,
        supportsStructuredOutput: boolean,
        supportsTopLevelUnion: boolean,
        supportsResponseFormatWithTools: optional(boolean),
        strictResponseFormat: boolean,
        unsupportedParameters: optional(each(oneOf(parameterNames))),
      }),
    settings: optional((settings, at) =>
      fields(settings, at, {
        parameters: optional(object),
        allowParallelToolCalls: optional(boolean),
        ignoreParallelToolCalls: optional(boolean),
        fixInvalidToolCalls: optional(boolean),
        recoverTextToolCallsOnAuto: optional(boolean),
        retryOnEmptyResponse: optional(boolean),
        toolCallFallbackViaResponseFormat: optional(boolean),
        strictParameters: optional(boolean),
        maxRepairAttempts: count,
        maxRetries: count,
      }),
    ),
    interactions: each(interaction),
  });
  if (cassette.version !== 1) fail("version", `is ${JSON.stringify(cassette.version) ?? "missing"}, not 1`);
  return cassette as Checked;
}
