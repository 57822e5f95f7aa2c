import { describe, expect, it } from "vitest";
import { z } from "zod";
import { StructuredOutputError, defineTool } from "../../../src/index.js";
import { ScriptedChatModel, rawStep } from "../../../src/testing/index.js";
import { callModes, runCall, settleCall, user } from "../../support/run-modes.js";

// A reply that fails the responseFormat schema because the model wrote a tool call as text: the
// error says so and names the option, and the re-ask tells the model.
const lookup = defineTool({ name: "lookup_incident", inputSchema: z.object({ incident_id: z.string() }) });
const verdict = z.object({ service: z.string(), severity: z.number().int() });
const ask = { messages: [user("Triage INC-1")], tools: [lookup], responseFormat: verdict };
const textCall = '{"name": "lookup_incident", "arguments": {"incident_id": "INC-1"}}';

describe("ChatModel: a structured answer that reads as a tool call written as text", () => {
  describe.each(callModes)("through %s", (mode) => {
    it("should read it as the call by default", async () => {
      const model = new ScriptedChatModel([rawStep(textCall)], { maxRepairAttempts: 0 });
      const { output } = await runCall(model, ask, mode);
      expect(output.toolCalls).toEqual([
        expect.objectContaining({ name: "lookup_incident", args: { incident_id: "INC-1" } }),
      ]);
      expect(output.object).toBeUndefined();
    });

    it("should say so and name the option when recoverTextToolCallsOnAuto is false", async () => {
      const model = new ScriptedChatModel([rawStep(textCall)], {
        maxRepairAttempts: 0,
        recoverTextToolCallsOnAuto: false,
      });
      const { error } = await settleCall(model, ask, mode);
      expect(StructuredOutputError.isInstance(error)).toBe(true);
      expect(error!.message).toMatch(/the reply is a call to .lookup_incident. written as text/);
      expect(error!.message).toMatch(/recoverTextToolCallsOnAuto is false/);
    });

    it("should name the arguments' mismatch when the call was not read for it, and tell the model on the re-ask", async () => {
      const bad = '<tool_call>{"name": "lookup_incident", "arguments": {"id": 1}}</tool_call>';
      const model = new ScriptedChatModel([rawStep(bad), rawStep('{"service": "auth-api", "severity": 1}')]);
      const { output } = await runCall(model, ask, mode);
      expect(output.object).toEqual({ service: "auth-api", severity: 1 });
      const reAsk = model.calls[1]!.messages.at(-1)!.content as string;
      expect(reAsk).toMatch(
        /a call to 'lookup_incident' written as text \(its arguments do not match the schema of 'lookup_incident'/,
      );

      const once = new ScriptedChatModel([rawStep(bad)], { maxRepairAttempts: 0 });
      const { error } = await settleCall(once, ask, mode);
      expect(error!.message).toMatch(/recoverTextToolCallsOnAuto reads a reply as tool calls only when/);
      expect(error!.message).toMatch(/incident_id/);
    });

    it("should add nothing to an error whose reply is no call", async () => {
      const model = new ScriptedChatModel([rawStep('{"service": "auth-api"}')], { maxRepairAttempts: 0 });
      const { error } = await settleCall(model, ask, mode);
      expect(StructuredOutputError.isInstance(error)).toBe(true);
      expect(error!.message).not.toMatch(/written as text/);
    });
  });
});
