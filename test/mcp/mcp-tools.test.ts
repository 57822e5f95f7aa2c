import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RunError, runTools, streamTools } from "../../src/index.js";
import type { McpClientLike, McpListedTool } from "../../src/mcp/index.js";
import { mcpTools } from "../../src/mcp/index.js";
import { ScriptedChatModel, textStep, toolCallStep } from "../../src/testing/index.js";
import { connectEverythingServer } from "../support/mcp-everything.js";

let client: Client;
beforeAll(async () => {
  client = await connectEverythingServer();
}, 30_000);
afterAll(async () => {
  await client?.close();
});

const ask = [{ role: "user" as const, content: "Go." }];

describe("mcpTools", () => {
  it("should list the reference server's tools with its input schemas, and its output schema where it declares one", async () => {
    const listed = (await client.listTools()).tools;
    const tools = await mcpTools(client);
    expect(tools.map((tool) => tool.name)).toEqual(listed.map((tool) => tool.name));
    const sum = tools.find((tool) => tool.name === "get-sum")!;
    expect(sum.parameters).toEqual(listed.find((tool) => tool.name === "get-sum")!.inputSchema);
    expect(sum.description).toBe(listed.find((tool) => tool.name === "get-sum")!.description);
    const structured = tools.find((tool) => tool.name === "get-structured-content")!;
    expect(structured.outputSchema).toEqual(
      listed.find((tool) => tool.name === "get-structured-content")!.outputSchema,
    );
    expect(sum.outputSchema).toBeUndefined();
  });

  it("should prepend prefix as given and call the tool by the server's name", async () => {
    const tools = await mcpTools(client, { prefix: "ev_", include: ["get-sum", "echo"] });
    expect(tools.map((tool) => tool.name).sort()).toEqual(["ev_echo", "ev_get-sum"]);
    const model = new ScriptedChatModel([toolCallStep("ev_get-sum", { a: 2, b: 3 }), textStep("5.")]);
    const run = await runTools({ model, messages: ask, tools });
    expect(run.steps[0]!.toolResults[0]!.result).toBe("The sum of 2 and 3 is 5.");
  });

  it("should leave out excluded tools and refuse an include the server does not list", async () => {
    const tools = await mcpTools(client, { exclude: ["echo"] });
    expect(tools.map((tool) => tool.name)).not.toContain("echo");
    await expect(mcpTools(client, { include: ["echo", "no-such-tool"] })).rejects.toThrow(/'no-such-tool'/);
  });

  it("should return structuredContent when the result has one", async () => {
    const tools = await mcpTools(client, { include: ["get-structured-content"] });
    const model = new ScriptedChatModel([
      toolCallStep("get-structured-content", { location: "Chicago" }),
      textStep("Done."),
    ]);
    const run = await runTools({ model, messages: ask, tools });
    expect(run.steps[0]!.toolResults[0]!.result).toMatchObject({
      temperature: expect.any(Number),
      conditions: expect.any(String),
      humidity: expect.any(Number),
    });
  });

  it("should return an image result as rich content, with its media type (runTools)", async () => {
    const tools = await mcpTools(client, { include: ["get-tiny-image"] });
    const model = new ScriptedChatModel([toolCallStep("get-tiny-image", {}), textStep("A tiny image.")]);
    const run = await runTools({ model, messages: ask, tools });
    const result = run.steps[0]!.toolResults[0]!.result as { content: { type: string; mediaType?: string }[] };
    const image = result.content.find((part) => part.type === "image") as unknown as {
      image: string;
      mediaType: string;
    };
    expect(image.mediaType).toBe("image/png");
    expect(Buffer.from(image.image, "base64").subarray(1, 4).toString()).toBe("PNG");
    expect(result.content.some((part) => part.type === "text")).toBe(true);
  });

  it("should send an isError result back to the model as a failure it reads, even with toolErrors: 'throw' (streamTools)", async () => {
    const tools = await mcpTools(client, { include: ["get-resource-reference"] });
    const model = new ScriptedChatModel([
      toolCallStep("get-resource-reference", { resourceType: "Text", resourceId: 1.5 }),
      textStep("That id is not valid."),
    ]);
    const stream = streamTools({ model, messages: ask, tools, toolErrors: "throw" });
    const parts: string[] = [];
    for await (const part of stream) parts.push(part.type);
    const run = await stream.final();
    expect(parts).toContain("tool-result");
    const [result] = run.steps[0]!.toolResults;
    expect(result!.error).toBeUndefined();
    expect(result!.result).toEqual({
      content: [{ type: "text", text: expect.stringMatching(/^Error: .*Invalid resourceId/) }],
    });
    const toolMessage = run.messages.find((message) => message.role === "tool")!;
    expect(toolMessage.content).toEqual([{ type: "text", text: expect.stringMatching(/Invalid resourceId/) }]);
    expect(run.text).toBe("That id is not valid.");
  });

  it("should stream the calls and results of a run over the server's tools (streamTools)", async () => {
    const tools = await mcpTools(client, { include: ["echo", "get-tiny-image"] });
    const model = new ScriptedChatModel([toolCallStep("echo", { message: "hello" }), textStep("It said hello.")]);
    const stream = streamTools({ model, messages: ask, tools });
    const results: unknown[] = [];
    for await (const part of stream) if (part.type === "tool-result") results.push(part.toolResult.result);
    expect(results).toEqual(["Echo: hello"]);
    expect((await stream.final()).text).toBe("It said hello.");
  });

  it.each(["runTools", "streamTools"] as const)(
    "should cancel a long-running tool when the run is aborted (%s), and the client keeps working",
    async (how) => {
      const [long] = await mcpTools(client, { include: ["trigger-long-running-operation"] });
      const controller = new AbortController();
      // Aborted once the tool's request is on its way to the server.
      const tool = {
        ...long!,
        execute: (args: Record<string, unknown>, context: Parameters<NonNullable<typeof long>["execute"] & {}>[1]) => {
          const pending = long!.execute!(args, context);
          setTimeout(() => controller.abort(), 50);
          return pending;
        },
      };
      const model = new ScriptedChatModel([
        toolCallStep("trigger-long-running-operation", { duration: 60, steps: 60 }),
        textStep("Never reached."),
      ]);
      const options = { model, messages: ask, tools: [tool], signal: controller.signal };
      const run =
        how === "runTools"
          ? runTools(options)
          : (async () => {
              const stream = streamTools(options);
              for await (const _part of stream);
              return stream.final();
            })();
      const error = await run.catch((caught: unknown) => caught);
      expect(RunError.isInstance(error)).toBe(true);
      expect((error as RunError).reason).toBe("aborted");
      expect((await client.callTool({ name: "echo", arguments: { message: "still here" } })).content).toEqual([
        { type: "text", text: "Echo: still here" },
      ]);
    },
  );
});

/** A client that lists the given tools (names no reference server would list) and answers nothing. */
function listing(...names: string[]): McpClientLike {
  const tools: McpListedTool[] = names.map((name) => ({ name, inputSchema: { type: "object", properties: {} } }));
  return {
    listTools: async () => ({ tools }),
    callTool: async () => ({ content: [] }),
  };
}

describe("mcpTools names", () => {
  it.each([["fs.read_file"], ["read file"], ["1st_tool"], ["x".repeat(65)]])(
    "should refuse %j, a name a provider would reject, naming it",
    async (name) => {
      await expect(mcpTools(listing("ok_tool", name))).rejects.toThrow(
        new RegExp(JSON.stringify(name).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")),
      );
    },
  );

  it("should refuse a prefix that makes the names unacceptable, and accept one that fixes them", async () => {
    await expect(mcpTools(listing("read"), { prefix: "fs." })).rejects.toThrow(/"fs.read"/);
    await expect(mcpTools(listing("1st"), { prefix: "fs_" })).resolves.toHaveLength(1);
  });

  it("should refuse names that clash, naming them", async () => {
    await expect(mcpTools(listing("read", "write", "read"))).rejects.toThrow(/'read' more than once/);
  });

  it("should follow the listing's pages and refuse a cursor that repeats", async () => {
    const page = (name: string, nextCursor?: string) => ({
      tools: [{ name, inputSchema: { type: "object" as const } }],
      ...(nextCursor ? { nextCursor } : {}),
    });
    const paged: McpClientLike = {
      listTools: async (params) => (params?.cursor === "2" ? page("b") : page("a", "2")),
      callTool: async () => ({}),
    };
    expect((await mcpTools(paged)).map((tool) => tool.name)).toEqual(["a", "b"]);
    const looping: McpClientLike = { listTools: async () => page("a", "again"), callTool: async () => ({}) };
    await expect(mcpTools(looping)).rejects.toThrow(/repeats the cursor/);
  });
});
