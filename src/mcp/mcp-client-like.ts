/**
 * The parts of an `@modelcontextprotocol/sdk` `Client` that `mcpTools` uses, seen structurally:
 * keelson's types never import the SDK, so they compile where it is not installed.
 */
export interface McpClientLike {
  listTools(
    params?: { cursor?: string },
    options?: { signal?: AbortSignal },
  ): Promise<{ tools: McpListedTool[]; nextCursor?: string | undefined }>;
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    resultSchema?: undefined,
    options?: { signal?: AbortSignal },
  ): Promise<unknown>;
}

/** One tool as an MCP server lists it. */
export interface McpListedTool {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema: { type: "object"; [key: string]: unknown };
  outputSchema?: { type: "object"; [key: string]: unknown } | undefined;
  [key: string]: unknown;
}
