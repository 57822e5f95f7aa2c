import type { JSONSchema } from "../core/schema/json-schema.js";
import type { Tool } from "../core/tool.js";

/**
 * A keelson tool made from an MCP server's tool: its input schema as the tool's JSON Schema, its
 * output schema (when the server declares one) as `outputSchema`, and `execute` calling `tools/call`.
 */
export type McpTool = Tool & {
  /** The server's output schema, when it declares one: what a `structuredContent` result holds. */
  readonly outputSchema?: JSONSchema;
  /** The tool's name on the server (its keelson name is `prefix` + this). */
  readonly mcpName: string;
};
