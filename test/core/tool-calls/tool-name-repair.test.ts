import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolCallError, defineTool } from "../../../src/index.js";
import { ScriptedChatModel, rawStep, toolCallStep } from "../../../src/testing/index.js";
import { callModes, runCall, settleCall, user } from "../../support/run-modes.js";

const getWeather = defineTool({ name: "get_weather", inputSchema: z.object({ city: z.string() }) });
const getTime = defineTool({ name: "get_time", inputSchema: z.object({ zone: z.string() }) });
const createIssue = defineTool({ name: "github__create_issue", inputSchema: z.object({ title: z.string() }) });
const jiraIssue = defineTool({ name: "jira__create_issue", inputSchema: z.object({ title: z.string() }) });

describe("Tool-name repair", () => {
  describe.each(callModes)("through %s", (mode) => {
    it.each([
      ["its case changed", "Get_Weather", [getWeather, getTime], "get_weather"],
      ["a dash for the underscore", "get-weather", [getWeather, getTime], "get_weather"],
      ["camel case", "getWeather", [getWeather, getTime], "get_weather"],
      ["a namespace prefix added", "functions.get_weather", [getWeather, getTime], "get_weather"],
      ["Gemma's default_api prefix", "default_api.get_weather", [getWeather, getTime], "get_weather"],
      ["its namespace prefix dropped", "create_issue", [createIssue, getWeather], "github__create_issue"],
    ] as const)(
      "should repair a native call with %s to the only tool it fits, and list it",
      async (_how, written, tools, meant) => {
        const args = meant === "github__create_issue" ? { title: "Bug" } : { city: "Paris" };
        const model = new ScriptedChatModel([toolCallStep(written, args)], { maxRepairAttempts: 0 });
        const { output } = await runCall(model, { messages: [user("q")], tools: [...tools] }, mode);
        expect(output.toolCalls.map(({ name, args }) => ({ name, args }))).toEqual([{ name: meant, args }]);
        expect(output.message.content).toContainEqual(expect.objectContaining({ type: "tool-call", name: meant }));
        expect(output.meta.repairs).toContainEqual({
          kind: "tool-name",
          detail: `read the call to '${written}' as '${meant}'`,
          toolName: meant,
        });
      },
    );

    it("should repair the name of a call written as text (Llama's pythonic list)", async () => {
      const model = new ScriptedChatModel([rawStep('[Get_Weather(city="Paris")]')], { maxRepairAttempts: 0 });
      const { output } = await runCall(
        model,
        { messages: [user("q")], tools: [getWeather, getTime], toolChoice: "required" },
        mode,
      );
      expect(output.toolCalls).toEqual([expect.objectContaining({ name: "get_weather", args: { city: "Paris" } })]);
      expect(output.meta.repairs.map((repair) => repair.kind)).toEqual(
        expect.arrayContaining(["text-tool-call", "tool-name"]),
      );
    });

    it("should never guess a name that could be two tools: re-asked naming both and the tool list", async () => {
      const tools = [createIssue, jiraIssue];
      for (const step of [
        toolCallStep("create_issue", { title: "Bug" }),
        rawStep('<tool_call>{"name": "create_issue", "arguments": {"title": "Bug"}}</tool_call>'),
        // Gemma 4's native form (https://ai.google.dev/gemma/docs/core/prompt-formatting-gemma4).
        rawStep('<|tool_call>call:create_issue{title:<|"|>Bug<|"|>}<tool_call|>'),
      ]) {
        const model = new ScriptedChatModel([step, toolCallStep("jira__create_issue", { title: "Bug" })]);
        const { output } = await runCall(model, { messages: [user("q")], tools, toolChoice: "required" }, mode);
        // The model's second, exact answer is what the caller gets; the guess was never made.
        expect(output.toolCalls.map((call) => call.name)).toEqual(["jira__create_issue"]);
        expect(output.meta.attempts[0]!.rejected).toMatch(/could be 'github__create_issue' or 'jira__create_issue'/);
        const reAsk = String(model.calls[1]!.messages.at(-1)!.content);
        expect(reAsk).toContain("Available tools: github__create_issue");
        expect(reAsk).toContain("jira__create_issue");
        expect(output.meta.repairs.map((repair) => repair.kind)).not.toContain("tool-name");
      }
    });

    it("should end an ambiguous name with an unknown-tool ToolCallError once the budget is spent", async () => {
      const model = new ScriptedChatModel([toolCallStep("Create-Issue", { title: "Bug" })], { maxRepairAttempts: 0 });
      const { error } = await settleCall(model, { messages: [user("q")], tools: [createIssue, jiraIssue] }, mode);
      expect(ToolCallError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ kind: "unknown-tool", toolName: "Create-Issue" });
    });

    it("should not take a different namespace for a dropped one", async () => {
      const model = new ScriptedChatModel([toolCallStep("gitlab__create_issue", { title: "Bug" })], {
        maxRepairAttempts: 0,
      });
      const { error } = await settleCall(model, { messages: [user("q")], tools: [createIssue] }, mode);
      expect(error).toMatchObject({ kind: "unknown-tool" });
    });

    it("should repair no name with fixInvalidToolCalls off", async () => {
      const model = new ScriptedChatModel([toolCallStep("Get_Weather", { city: "Paris" })], {
        fixInvalidToolCalls: false,
        maxRepairAttempts: 0,
      });
      const { error } = await settleCall(model, { messages: [user("q")], tools: [getWeather] }, mode);
      expect(error).toMatchObject({ kind: "unknown-tool" });
    });
  });
});
