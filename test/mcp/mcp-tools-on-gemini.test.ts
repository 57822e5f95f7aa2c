import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GoogleChatModel } from "../../src/adapters/google/index.js";
import { runTools } from "../../src/index.js";
import { mcpTools } from "../../src/mcp/index.js";
import { geminiTextReply } from "../support/gemini-wire.js";
import { useLoopbackServer } from "../support/loopback-server.js";
import { connectEverythingServer } from "../support/mcp-everything.js";
import { jsonResponse } from "../support/openai-wire.js";

const server = useLoopbackServer();
let client: Client;
beforeAll(async () => {
  client = await connectEverythingServer();
}, 30_000);
afterAll(async () => {
  await client?.close();
});

describe("mcpTools on GoogleChatModel", () => {
  it("should send the reference server's image back to Gemini inside the functionResponse", async () => {
    const replies = [
      jsonResponse({
        candidates: [
          {
            content: {
              role: "model",
              parts: [{ functionCall: { name: "get-tiny-image", args: {} }, thoughtSignature: "c2ln" }],
            },
            finishReason: "STOP",
          },
        ],
      }),
      geminiTextReply("A tiny image.").create!,
    ];
    let next = 0;
    server.handle((_request, response) => {
      const reply = replies[Math.min(next++, replies.length - 1)]!;
      response.writeHead(reply.status ?? 200, reply.headers);
      response.end(reply.body as string);
    });
    const tools = await mcpTools(client, { include: ["get-tiny-image"] });
    const model = new GoogleChatModel("gemini-3-flash-preview", { baseURL: server.url, apiKey: "AIza-test" });
    const run = await runTools({ model, messages: [{ role: "user", content: "Show me an image." }], tools });
    expect(run.text).toBe("A tiny image.");
    const contents = (server.requests[1]!.json as any).contents as any[];
    expect(contents[1].parts[0]).toEqual({
      functionCall: { name: "get-tiny-image", args: {} },
      thoughtSignature: "c2ln",
    });
    const response = contents[2].parts[0].functionResponse;
    expect(response.name).toBe("get-tiny-image");
    expect(response.response.output).toMatch(/image/i);
    expect(response.parts).toEqual([{ inlineData: { mimeType: "image/png", data: expect.stringMatching(/^iVBOR/) } }]);
  });
});
