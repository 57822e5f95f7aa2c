/**
 * MCP tools in an agent: the official reference MCP server (`@modelcontextprotocol/server-everything`,
 * spawned over stdio from node_modules) lends its tools to `runTools`. `mcpTools` turns them into
 * keelson tools; the run calls one (`get-sum`), gets an image back from another (`get-tiny-image`,
 * a rich result), and answers. On the scripted model by default: no network.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { runTools } from "keelson";
import { mcpTools } from "keelson/mcp";
import { ScriptedChatModel, textStep, toolCallStep } from "keelson/testing";

const server = join(
  dirname(fileURLToPath(import.meta.url)),
  "../node_modules/@modelcontextprotocol/server-everything/dist/index.js",
);
const client = new Client({ name: "keelson-example", version: "1.0.0" });
await client.connect(
  new StdioClientTransport({ command: process.execPath, args: [server, "stdio"], stderr: "ignore" }),
);

try {
  // Only two of the server's tools, under a prefix of our own.
  const tools = await mcpTools(client, { include: ["get-sum", "get-tiny-image"], prefix: "demo_" });
  console.log("tools:", tools.map((tool) => tool.name).join(", "));

  const model = new ScriptedChatModel([
    toolCallStep("demo_get-sum", { a: 19, b: 23 }),
    toolCallStep("demo_get-tiny-image", {}),
    textStep("42, and a tiny image."),
  ]);
  const run = await runTools({
    model,
    messages: [{ role: "user", content: "Add 19 and 23, then show me an image." }],
    tools,
  });

  const [sum] = run.steps[0]!.toolResults;
  const [image] = run.steps[1]!.toolResults;
  console.log("get-sum:", sum!.result);
  const parts = (image!.result as { content: { type: string; mediaType?: string }[] }).content;
  console.log(
    "get-tiny-image:",
    parts.map((part) => part.type + (part.mediaType ? ` (${part.mediaType})` : "")).join(", "),
  );
  console.log("answer:", run.text);

  if (sum!.result !== "The sum of 19 and 23 is 42.") throw new Error(`unexpected sum: ${String(sum!.result)}`);
  if (!parts.some((part) => part.type === "image" && part.mediaType === "image/png"))
    throw new Error("no image came back");
  const toolMessage = run.messages.find(
    (message) => message.role === "tool" && message.toolName === "demo_get-tiny-image",
  );
  if (typeof toolMessage?.content === "string") throw new Error("the image did not travel as a rich tool result");
} finally {
  await client.close();
}
