/** What `mcpTools` takes beside the client. Every field accepts `undefined`. */
export interface McpToolsOptions {
  /** Only these tools, by the server's names (a name the server does not list is a TypeError). @default every tool */
  include?: readonly string[] | undefined;
  /** Leave out these tools, by the server's names. @default none */
  exclude?: readonly string[] | undefined;
  /** Prepended to every tool's name as given (`"fs_"` → `fs_read_file`); the call still uses the server's name. @default "" */
  prefix?: string | undefined;
  /** Aborts the listing. @default none */
  signal?: AbortSignal | undefined;
}
