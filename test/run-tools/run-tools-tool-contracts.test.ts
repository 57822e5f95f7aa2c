// What a tool returns: checked against its outputSchema, sent as rich parts, cut off at its timeoutMs.
import { describe, expect, expectTypeOf, it, vi } from "vitest";
import { z } from "zod";
import type { Message, ToolExecuteContext } from "../../src/index.js";
import { defineTool } from "../../src/index.js";
import { ScriptedChatModel, textStep } from "../../src/testing/index.js";
import { answerStep, callStep, runProfiles } from "../support/run-tools-profiles.js";
import { runErrorIn, runIn, runModes } from "../support/run-tools-modes.js";

const question = (): Message[] => [{ role: "user", content: "How is auth-api?" }];
const answer = defineTool({ name: "answer", inputSchema: z.object({ summary: z.string() }) });
const statusSchema = z.object({ service: z.string(), healthy: z.boolean() });

function statusTool(result: unknown) {
  return defineTool({
    name: "service_status",
    inputSchema: z.object({ service: z.string() }),
    outputSchema: statusSchema,
    execute: () => result as z.infer<typeof statusSchema>,
  });
}

describe("defineTool's outputSchema", () => {
  it("should type what execute returns from a zod outputSchema", () => {
    const tool = defineTool({
      name: "service_status",
      inputSchema: z.object({ service: z.string() }),
      outputSchema: statusSchema,
      execute: ({ service }) => ({ service, healthy: true }),
    });
    expectTypeOf(tool.name).toEqualTypeOf<"service_status">();
    defineTool({
      // @ts-expect-error: `healthy` must be a boolean under the outputSchema (reported on the definition)
      name: "service_status",
      inputSchema: z.object({ service: z.string() }),
      outputSchema: statusSchema,
      execute: ({ service }) => ({ service, healthy: "yes" }),
    });
  });

  it("should refuse an outputSchema that is no schema, naming the tool", () => {
    expect(() =>
      defineTool({ name: "bad", inputSchema: z.object({}), outputSchema: { type: "nonsense" } as never }),
    ).toThrow(/Tool 'bad': its outputSchema/);
    expect(() => defineTool({ name: "bad", inputSchema: z.object({}), timeoutMs: -1 })).toThrow(/timeoutMs/);
    expect(() => defineTool({ name: "bad", inputSchema: z.object({}), needsApproval: "yes" as never })).toThrow(
      /needsApproval/,
    );
  });
});

describe.each(runModes)("%s", (mode) => {
  describe.each(runProfiles)("on the $rung rung", (profile) => {
    const toolChoice = profile.rung === "native" ? undefined : ("required" as const);

    it("should send a result that fails the outputSchema back as an error result naming the mismatch", async () => {
      const model = new ScriptedChatModel(
        [callStep(profile, "service_status", { service: "auth-api" }), answerStep(profile, "Unknown.")],
        profile.options,
      );
      const tools = [statusTool({ service: "auth-api", healthy: "yes" }), answer];
      const { run } = await runIn(mode, { model, messages: question(), tools, toolChoice });
      const result = run.steps[0]!.toolResults[0]!;
      expect(result.error).toBeInstanceOf(Error);
      expect(result.message.content).toMatch(
        /^Error: the tool 'service_status' returned a result that does not match its outputSchema \(healthy: .*boolean/,
      );
      expect(model.calls[1]!.messages).toContainEqual(result.message);
    });

    it("should send rich results (text and an image) as the tool message's parts", async () => {
      const chart = defineTool({
        name: "render_chart",
        inputSchema: z.object({ service: z.string() }),
        execute: () => ({
          content: [
            { type: "text" as const, text: "Error rate, last hour" },
            { type: "image" as const, image: "iVBORw0KGgo=", mediaType: "image/png" },
          ],
        }),
      });
      const model = new ScriptedChatModel(
        [callStep(profile, "render_chart", { service: "auth-api" }), answerStep(profile, "It spiked.")],
        profile.options,
      );
      const { run } = await runIn(mode, { model, messages: question(), tools: [chart, answer], toolChoice });
      const message = run.steps[0]!.toolResults[0]!.message;
      expect(message.content).toEqual([
        { type: "text", text: "Error rate, last hour" },
        { type: "image", image: "iVBORw0KGgo=", mediaType: "image/png" },
      ]);
      expect(model.calls[1]!.messages).toContainEqual(message);
      // Plain JSON: the transcript survives a round trip as it is.
      expect(JSON.parse(JSON.stringify(run.messages))).toEqual(run.messages);
    });
  });

  it('should end the run with RunError reason "tool-output" under toolErrors: "throw"', async () => {
    const model = new ScriptedChatModel([callStep(runProfiles[0], "service_status", { service: "auth-api" })]);
    const error = await runErrorIn(mode, {
      model,
      messages: question(),
      tools: [statusTool({ service: "auth-api" })],
      toolErrors: "throw",
    });
    expect(error.reason).toBe("tool-output");
    expect(error.message).toMatch(/service_status.*outputSchema/);
    expect(error.toolCall?.name).toBe("service_status");
  });

  it("should pass a result that meets the outputSchema as JSON", async () => {
    const model = new ScriptedChatModel([
      callStep(runProfiles[0], "service_status", { service: "auth-api" }),
      textStep("Healthy."),
    ]);
    const { run } = await runIn(mode, {
      model,
      messages: question(),
      tools: [statusTool({ service: "auth-api", healthy: true })],
    });
    expect(run.messages[2]).toMatchObject({ content: '{"service":"auth-api","healthy":true}' });
  });

  it("should send a rich part without its fields back as an error result, naming the part", async () => {
    const broken = defineTool({
      name: "render_chart",
      inputSchema: z.object({}),
      execute: () => ({ content: [{ type: "image" as const, image: 42 as unknown as string }] }),
    });
    const model = new ScriptedChatModel([callStep(runProfiles[0], "render_chart", {}), textStep("No chart.")]);
    const { run } = await runIn(mode, { model, messages: question(), tools: [broken] });
    expect(run.messages[2]).toMatchObject({ content: expect.stringMatching(/content\[0\].*image part/) });
  });

  it("should abort a tool past its timeoutMs and say it timed out", async () => {
    let seen: AbortSignal | undefined;
    const slow = defineTool({
      name: "slow_query",
      inputSchema: z.object({}),
      timeoutMs: 20,
      execute: (_args, { signal }) => {
        seen = signal;
        return new Promise<string>(() => {});
      },
    });
    const model = new ScriptedChatModel([callStep(runProfiles[0], "slow_query", {}), textStep("It timed out.")]);
    const { run } = await runIn(mode, { model, messages: question(), tools: [slow] });
    expect(seen?.aborted).toBe(true);
    expect(run.messages[2]).toMatchObject({
      content:
        "Error: the tool 'slow_query' failed: it timed out after 20 ms (its timeoutMs) and its signal was aborted",
    });
    expect(run.text).toBe("It timed out.");
  });

  it("should not time out a tool that settles in time, and leave no timer behind", async () => {
    const quick = vi.fn((_args: object, _context: ToolExecuteContext) => "ok");
    const tool = defineTool({ name: "quick", inputSchema: z.object({}), timeoutMs: 60_000, execute: quick });
    const model = new ScriptedChatModel([callStep(runProfiles[0], "quick", {}), textStep("Done.")]);
    const { run } = await runIn(mode, { model, messages: question(), tools: [tool] });
    expect(run.messages[2]).toMatchObject({ content: "ok" });
    expect(quick.mock.calls[0]![1].signal.aborted).toBe(false);
  });
});
