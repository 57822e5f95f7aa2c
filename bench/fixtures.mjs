import process from "node:process";
// What both sides of the benchmark send and what the fake server answers: one tool, one question,
// one tool call. Plain JavaScript, shared by the server and the workers (which run without tsx).

export const modelId = "bench-model";

export const messages = [
  { role: "system", content: "You are a weather assistant. Call a tool when asked about the weather." },
  { role: "user", content: "What is the weather in Paris today?" },
];

/** The tool's arguments as JSON Schema (keelson validates them with ajv; the raw side only parses). */
export const weatherParameters = {
  type: "object",
  properties: {
    city: { type: "string", description: "The city name" },
    unit: { type: "string", enum: ["celsius", "fahrenheit"] },
  },
  required: ["city"],
  additionalProperties: false,
};

export const weatherTool = {
  name: "get_weather",
  description: "Current weather for a city",
  parameters: weatherParameters,
};

export const toolArguments = { city: "Paris", unit: "celsius" };

/** Text chunks in a native stream before the tool call (BENCH_TEXT_CHUNKS, for the server and the workers alike). @default 200 */
export const textChunkCount = Number(process.env.BENCH_TEXT_CHUNKS ?? 200);
/** Pieces the tool call's JSON arguments (or the forced reply's JSON) are split into. */
export const argumentPieceCount = 8;

export function textChunks() {
  return Array.from({ length: textChunkCount }, (_, index) => `word${index} `);
}

/** `text` cut into `count` pieces of about the same length. */
export function split(text, count) {
  const size = Math.ceil(text.length / count);
  const pieces = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}

/**
 * The tool-union schema a forced call sends, written out by hand for the raw side (the same shape
 * keelson builds): OpenAI strict mode wraps the union in `{ item }` and makes optional fields nullable.
 */
export const openAIUnionSchema = {
  type: "object",
  properties: {
    item: {
      type: "object",
      description: weatherTool.description,
      properties: {
        name: { type: "string", enum: [weatherTool.name] },
        parameters: {
          type: "object",
          properties: {
            city: { type: "string", description: "The city name" },
            unit: { anyOf: [{ type: "string", enum: ["celsius", "fahrenheit"] }, { type: "null" }] },
          },
          required: ["city", "unit"],
          additionalProperties: false,
        },
      },
      required: ["name", "parameters"],
      additionalProperties: false,
    },
  },
  required: ["item"],
  additionalProperties: false,
};

export const ollamaUnionSchema = {
  type: "object",
  description: weatherTool.description,
  properties: { name: { type: "string", enum: [weatherTool.name] }, parameters: weatherParameters },
  required: ["name", "parameters"],
  additionalProperties: false,
};

/** The same union for Anthropic's `output_config.format`, wrapped in `{ item }` as keelson sends it there. */
export const anthropicUnionSchema = {
  type: "object",
  properties: { item: ollamaUnionSchema },
  required: ["item"],
  additionalProperties: false,
};

/** The growth cases' extra tools: 99 more, each with a small schema of its own, beside the weather tool. */
const extraTools = Array.from({ length: 99 }, (_, index) => ({
  name: `lookup_${index}`,
  description: `Looks up record ${index}.`,
  parameters: {
    type: "object",
    properties: { id: { type: "string" }, limit: { type: "integer" } },
    required: ["id"],
    additionalProperties: false,
  },
}));

/** A 500-message conversation (the question last), as a long-running agent sends it. */
const longHistory = [
  messages[0],
  ...Array.from({ length: 498 }, (_, index) =>
    index % 2 === 0
      ? { role: "user", content: `Earlier question ${index}: what was the weather in city ${index}?` }
      : { role: "assistant", content: `In city ${index - 1} it was ${10 + (index % 20)} degrees and cloudy.` },
  ),
  messages[1],
];

/**
 * What a case sends: "history-500" the long conversation, "tools-100" the weather tool among 99
 * others (the call still forces the weather tool); "native" and "forced" the short question.
 */
export function workload(path) {
  return {
    messages: path === "history-500" ? longHistory : messages,
    tools: path === "tools-100" ? [weatherTool, ...extraTools] : [weatherTool],
  };
}
