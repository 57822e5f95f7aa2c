import type { JSONSchema } from "../core/schema/json-schema.js";
import { defineTool } from "../core/define-tool.js";
import type { Tool } from "../core/tool.js";
import { abortError } from "../internal/abort.js";
import type { McpClientLike, McpListedTool } from "./mcp-client-like.js";
import type { McpToolsOptions } from "./mcp-tools-options.js";
import { readMcpResult } from "./read-mcp-result.js";

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

/** What every provider takes as a function name: a letter or `_` first (Gemini's rule), then letters, digits, `_`, `-`; 64 at most. */
const acceptedName = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;
/** Pages of a listing read at most: a server whose cursor never ends is refused, not followed for ever. */
const maxPages = 1000;

/**
 * The tools of a connected `@modelcontextprotocol/sdk` `Client` as keelson tools: each with the
 * server's input schema (and output schema, when it declares one) as JSON Schema, and an `execute`
 * that calls `tools/call` with the run's signal (an abort cancels the request and rejects with an
 * `AbortError`). What `execute` returns is the `structuredContent` when there is one, else the
 * content (text, or a rich result with the images); a result with `isError: true` comes back as
 * text the model reads, not a throw. `prefix` is prepended to every name as given. Names that clash
 * once prefixed, or that a provider would reject, are a TypeError naming them; so is an `include`
 * naming a tool the server does not list.
 */
export async function mcpTools(client: McpClientLike, options: McpToolsOptions = {}): Promise<McpTool[]> {
  if (client === null || typeof client !== "object" || typeof client.listTools !== "function") {
    throw new TypeError("mcpTools expects a connected @modelcontextprotocol/sdk Client (with listTools and callTool).");
  }
  const { include, exclude, prefix = "", signal } = options;
  if (typeof prefix !== "string") throw new TypeError(`mcpTools: prefix must be a string, got ${typeof prefix}.`);
  const listed = await listAll(client, signal);
  const byName = new Map(listed.map((tool) => [tool.name, tool]));
  if (include !== undefined) {
    const unknown = include.filter((name) => !byName.has(name));
    if (unknown.length > 0) {
      throw new TypeError(
        `mcpTools: include names ${unknown.map((name) => `'${name}'`).join(", ")}, which the server does not list (it lists ${[...byName.keys()].join(", ") || "no tool"}).`,
      );
    }
  }
  const chosen = listed.filter(
    (tool) => (include === undefined || include.includes(tool.name)) && !(exclude ?? []).includes(tool.name),
  );
  checkNames(chosen.map((tool) => prefix + tool.name));
  return chosen.map((tool) => toKeelsonTool(client, tool, prefix + tool.name));
}

async function listAll(client: McpClientLike, signal: AbortSignal | undefined): Promise<McpListedTool[]> {
  const tools: McpListedTool[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const result = await client.listTools(
      cursor === undefined ? undefined : { cursor },
      signal ? { signal } : undefined,
    );
    if (!Array.isArray(result?.tools))
      throw new TypeError("mcpTools: the server's tools/list answer has no tools array.");
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined || cursor === "") return tools;
    if (seen.has(cursor)) throw new TypeError(`mcpTools: the server's tools/list repeats the cursor '${cursor}'.`);
    seen.add(cursor);
  }
  throw new TypeError(`mcpTools: the server's tools/list did not end after ${maxPages} pages.`);
}

/** Every name once, each one a provider takes; else a TypeError naming those that are not. */
function checkNames(names: string[]): void {
  const rejected = names.filter((name) => !acceptedName.test(name));
  if (rejected.length > 0) {
    throw new TypeError(
      `mcpTools: ${rejected.map((name) => JSON.stringify(name)).join(", ")} ${rejected.length === 1 ? "is not a name" : "are not names"} every provider takes ` +
        "(a letter or '_' first, then letters, digits, '_' or '-', 64 at most): leave them out with exclude, or change prefix.",
    );
  }
  const clashes = [...new Set(names.filter((name, index) => names.indexOf(name) !== index))];
  if (clashes.length > 0) {
    throw new TypeError(
      `mcpTools: the server lists ${clashes.map((name) => `'${name}'`).join(", ")} more than once: leave the copies out with exclude.`,
    );
  }
}

function toKeelsonTool(client: McpClientLike, listed: McpListedTool, name: string): McpTool {
  const description = listed.description ?? listed.title;
  const tool = defineTool({
    name,
    ...(typeof description === "string" && description !== "" ? { description } : {}),
    inputSchema: listed.inputSchema as JSONSchema,
    ...(listed.outputSchema === undefined ? {} : { outputSchema: listed.outputSchema as JSONSchema }),
    execute: async (args, context) => {
      const signal = context.signal;
      try {
        const result = await client.callTool({ name: listed.name, arguments: args }, undefined, { signal });
        return readMcpResult(result);
      } catch (error) {
        // The SDK rejects an aborted request with its own McpError (having sent notifications/cancelled).
        if (signal.aborted) throw abortError(signal);
        throw error;
      }
    },
  });
  return Object.assign(tool, { mcpName: listed.name }) as McpTool;
}
