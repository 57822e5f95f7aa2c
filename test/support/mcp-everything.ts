import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const serverEntry = join(
  dirname(fileURLToPath(import.meta.url)),
  "../../node_modules/@modelcontextprotocol/server-everything/dist/index.js",
);

/**
 * A client connected to the official MCP reference server (`@modelcontextprotocol/server-everything`,
 * a dev dependency) spawned over stdio from node_modules: a real server, no network.
 */
export async function connectEverythingServer(): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverEntry, "stdio"],
    stderr: "ignore",
  });
  const client = new Client({ name: "keelson-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}
