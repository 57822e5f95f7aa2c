import type { JSONSchema } from "../schema/json-schema.js";
import type { UnionTool } from "./tool-union-schema.js";

/** The system instruction of the prompt rung: which tools exist and the exact JSON to answer with. */
export function toolUnionInstruction(tools: readonly UnionTool[], schema: JSONSchema): string {
  const list = tools.map((tool) => `- ${tool.name}${tool.description ? `: ${tool.description}` : ""}`).join("\n");
  return [
    "You must call a tool. Available tools:",
    list,
    'Answer with only a JSON value that matches this JSON Schema, of the form {"name": <tool name>, "parameters": {…}}, and nothing else:',
    JSON.stringify(schema),
  ].join("\n");
}
