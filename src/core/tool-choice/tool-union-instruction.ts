import type { JSONSchema } from "../schema/json-schema.js";
import type { UnionTool } from "./tool-union-schema.js";

/**
 * The system instruction of the prompt rung: which tools exist and the exact JSON to answer with.
 * With `answer` (the name of the variant carrying the final answer), the model may call a tool or
 * give that answer instead.
 */
export function toolUnionInstruction(tools: readonly UnionTool[], schema: JSONSchema, answer?: string): string {
  const list = tools.map((tool) => `- ${tool.name}${tool.description ? `: ${tool.description}` : ""}`).join("\n");
  return [
    answer === undefined
      ? "You must call a tool. Available tools:"
      : `Call a tool, or give the final answer with the name '${answer}'. Available tools:`,
    list,
    'Answer with only a JSON value that matches this JSON Schema, of the form {"name": <tool name>, "parameters": {…}}, and nothing else:',
    JSON.stringify(schema),
  ].join("\n");
}
