/**
 * `mcpTools`: the tools of a Model Context Protocol server (an `@modelcontextprotocol/sdk` `Client`)
 * as keelson tools.
 * @module keelson/mcp
 */
export { mcpTools, type McpTool } from "./mcp-tools.js";
export type { McpToolsOptions } from "./mcp-tools-options.js";
export type { McpClientLike, McpListedTool } from "./mcp-client-like.js";
export type { McpRichResult } from "./read-mcp-result.js";
