import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, runTools, streamTools } from "../../src/index.js";
import type { Message, RunPart, Tool } from "../../src/index.js";
import { ScriptedChatModel, rawStep, textStep } from "../../src/testing/index.js";
import { hasSharedFixtures, missingFixturesMessage } from "../support/shared-fixtures.js";
import {
  corpusTools,
  ordinaryReplies,
  quoteReadings,
  readQuotes,
} from "../core/text-tool-calls/__fixtures__/text-call-corpus.js";

/**
 * The agent loop on a small local model that writes its tool call as text under toolChoice "auto"
 * (the default): the tool runs and the loop goes on, and an ordinary answer ends the run as text.
 */
const messages: Message[] = [{ role: "user", content: "What is going on with INC-001?" }];
const ran: string[] = [];
const lookup = defineTool({
  name: "lookup_incident",
  inputSchema: z.object({ incident_id: z.string() }),
  execute: ({ incident_id }) => {
    ran.push(incident_id);
    return `${incident_id}: auth-api outage, open`;
  },
});

const textParts = (parts: RunPart[]) =>
  parts.flatMap((part) => (part.type === "text-delta" ? [part.text] : [])).join("");

/** Each tool of a quote's thread, given an execute that records its call. */
const executable = (tools: Tool[], calls: string[]) =>
  tools.map((tool) => ({
    ...tool,
    execute: (args: unknown) => (calls.push(`${tool.name} ${JSON.stringify(args)}`), "done"),
  }));

describe("runTools", () => {
  it("should run a tool call written as text and answer after it", async () => {
    ran.length = 0;
    const model = new ScriptedChatModel([
      rawStep('{"name": "lookup_incident", "arguments": {"incident_id": "INC-001"}}'),
      textStep("INC-001 is an auth-api outage."),
    ]);
    const run = await runTools({ model, messages, tools: [lookup] });
    expect(ran).toEqual(["INC-001"]);
    expect(run.text).toBe("INC-001 is an auth-api outage.");
    expect(run.steps[0]!.output.meta.repairs).toContainEqual(expect.objectContaining({ kind: "text-tool-call" }));
  });

  it.each(ordinaryReplies.map((reply) => [reply.label, reply.text] as const))(
    "should end the run with %s as its answer, running no tool",
    async (_label, text) => {
      const model = new ScriptedChatModel([rawStep(text)]);
      const run = await runTools({
        model,
        messages,
        tools: corpusTools.map((tool) => ({ ...tool, execute: () => "ran" })),
      });
      expect(run.text).toBe(text);
      expect(run.steps).toHaveLength(1);
      expect(run.steps[0]!.output.toolCalls).toEqual([]);
    },
  );

  describe.skipIf(!hasSharedFixtures)("over the real quotes", () => {
    if (!hasSharedFixtures) it.skip(missingFixturesMessage, () => {});
    it.each(hasSharedFixtures ? readQuotes().map((quote) => [quote.thread, quote] as const) : [])(
      "should run the calls of %s when it is nothing but calls, else answer with it",
      async (thread, quote) => {
        const reading = quoteReadings[thread]!;
        const calls: string[] = [];
        const model = new ScriptedChatModel([rawStep(quote.posted_output), textStep("Done.")]);
        const run = await runTools({ model, messages, tools: executable(reading.tools, calls) });
        expect(calls).toEqual((reading.calls ?? []).map((call) => `${call.name} ${JSON.stringify(call.args)}`));
        expect(run.text).toBe(reading.calls ? "Done." : quote.posted_output);
      },
    );
  });
});

describe("streamTools", () => {
  it("should never stream the markup of a call written as text: its tool-call part, then its result", async () => {
    ran.length = 0;
    const model = new ScriptedChatModel([
      rawStep('<tool_call>\n{"name": "lookup_incident", "arguments": {"incident_id": "INC-001"}}\n</tool_call>'),
      textStep("INC-001 is open."),
    ]);
    const stream = streamTools({ model, messages, tools: [lookup] });
    const parts: RunPart[] = [];
    for await (const part of stream) parts.push(part);
    expect(ran).toEqual(["INC-001"]);
    expect(textParts(parts)).toBe("INC-001 is open.");
    expect(parts.map((part) => part.type).filter((type) => type !== "text-delta")).toEqual([
      "step-start",
      "tool-call",
      "finish",
      "tool-result",
      "step-finish",
      "step-start",
      "finish",
      "step-finish",
    ]);
    expect((await stream.final()).text).toBe("INC-001 is open.");
  });

  it.each(ordinaryReplies.map((reply) => [reply.label, reply.text] as const))(
    "should stream %s whole as the answer",
    async (_label, text) => {
      const model = new ScriptedChatModel([rawStep(text)]);
      const stream = streamTools({
        model,
        messages,
        tools: corpusTools.map((tool) => ({ ...tool, execute: () => "ran" })),
      });
      const parts: RunPart[] = [];
      for await (const part of stream) parts.push(part);
      expect(textParts(parts)).toBe(text);
      expect(parts.some((part) => part.type === "tool-call" || part.type === "tool-result")).toBe(false);
    },
  );
});
