import { describe, expect, it } from "vitest";
import type { Message, ToolDefinition } from "../../../src/index.js";
import { readLocalFixture, replyFor, replyOf, useBedrockLoopback } from "../../support/bedrock-loopback.js";
import { callModes, runCall } from "../../support/run-modes.js";

// Rules the Converse service enforces on a request (ValidationException otherwise), which the
// caller's messages and tools do not know about.
const pdf = (filename?: string) => ({
  type: "file" as const,
  data: "JVBERi0=",
  mediaType: "application/pdf",
  ...(filename ? { filename } : {}),
});
const lookupIncident: ToolDefinition = {
  name: "lookup_incident",
  inputSchema: { type: "object", properties: { incident_id: { type: "string" } }, required: ["incident_id"] },
};
const textReply = () => replyOf(readLocalFixture("converse-text.json"));

describe("BedrockChatModel", () => {
  const bedrock = useBedrockLoopback();
  const sentMessages = () =>
    bedrock.server.requests[0]!.json.messages as { role: string; content: Record<string, any>[] }[];

  describe.each(callModes)("request rules through %s", (mode) => {
    // "Messages can't contain duplicate document names": the rule spans the whole request, and
    // Converse replays every turn, so a document attached in turn 1 and another in turn 3 collide.
    it("should give every document of the request a distinct name", async () => {
      bedrock.server.handle(replyFor(textReply(), mode));
      const messages: Message[] = [
        { role: "user", content: [{ type: "text", text: "Read this." }, pdf()] },
        { role: "assistant", content: "Read." },
        {
          role: "user",
          content: [
            { type: "text", text: "And these." },
            pdf(),
            pdf("report.pdf"),
            pdf("report.pdf"),
            pdf("Report.pdf"),
          ],
        },
      ];
      await runCall(bedrock.model("us.anthropic.claude-3-7-sonnet-20250219-v1:0"), { messages }, mode);

      const names = sentMessages().flatMap((turn) =>
        turn.content.filter((block) => block.document).map((block) => block.document.name as string),
      );
      expect(names).toHaveLength(5);
      expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(5);
      for (const name of names) expect(name).toMatch(/^[A-Za-z0-9\-()[\]]+(?: [A-Za-z0-9\-()[\]]+)*$/);
      expect(names[2]).toBe("report"); // a name that does not collide is kept as it was
    });

    // DocumentSource takes an S3 location as ImageSource does: an s3:// URI is no base64.
    it("should send a document given as an s3:// URI as its S3 location", async () => {
      bedrock.server.handle(replyFor(textReply(), mode));
      const part = {
        type: "file" as const,
        data: "s3://incident-reports/2026/INC-001.pdf",
        mediaType: "application/pdf",
        filename: "INC-001.pdf",
      };
      await runCall(
        bedrock.model("us.anthropic.claude-3-7-sonnet-20250219-v1:0"),
        { messages: [{ role: "user", content: [{ type: "text", text: "Summarise." }, part] }] },
        mode,
      );

      const document = sentMessages()[0]!.content.find((block) => block.document)!.document;
      expect(document).toEqual({
        format: "pdf",
        name: "INC-001",
        source: { s3Location: { uri: "s3://incident-reports/2026/INC-001.pdf" } },
      });
    });

    // "text content blocks must contain non-whitespace text": a tool that printed nothing is common.
    it.each(["", "  \n"])("should send a tool result of %j as non-blank text", async (output) => {
      bedrock.server.handle(replyFor(textReply(), mode));
      const messages: Message[] = [
        { role: "user", content: "Check INC-001." },
        {
          role: "assistant",
          content: [{ type: "tool-call", id: "tooluse_a", name: "lookup_incident", args: { incident_id: "INC-001" } }],
        },
        { role: "tool", toolCallId: "tooluse_a", toolName: "lookup_incident", content: output },
      ];
      await runCall(
        bedrock.model("us.anthropic.claude-3-7-sonnet-20250219-v1:0"),
        { messages, tools: [lookupIncident] },
        mode,
      );

      const result = sentMessages()[2]!.content[0]!.toolResult;
      expect(result.toolUseId).toBe("tooluse_a");
      for (const block of result.content as { text?: string }[]) expect(block.text?.trim()).toBeTruthy();
    });

    // ToolSpecification.description has a minimum length of 1; MCP servers list tools with "".
    it("should leave out a blank tool description", async () => {
      bedrock.server.handle(replyFor(textReply(), mode));
      await runCall(
        bedrock.model("us.anthropic.claude-3-7-sonnet-20250219-v1:0"),
        { messages: [{ role: "user", content: "Check INC-001." }], tools: [{ ...lookupIncident, description: "" }] },
        mode,
      );

      expect(bedrock.server.requests[0]!.json.toolConfig.tools[0].toolSpec).not.toHaveProperty("description");
    });
  });
});
