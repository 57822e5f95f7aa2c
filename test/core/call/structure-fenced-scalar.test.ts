import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ScriptedChatModel, rawStep } from "../../../src/testing/index.js";
import { callModes, runCall, user } from "../../support/run-modes.js";

/** A small model with neither a JSON-schema response format nor a forced tool: the schema goes into the prompt. */
const promptOnly = { supportsStructuredOutput: false, toolChoiceSupport: ["auto"], maxRepairAttempts: 0 } as const;

describe("structured output whose root is no object or array, written in a markdown fence", () => {
  describe.each(callModes)("through %s", (mode) => {
    it.each([
      ["an enum", z.enum(["low", "high"]), '```json\n"high"\n```', "high"],
      ["a number", z.number(), "```json\n42\n```", 42],
      ["a boolean", z.boolean(), "```\ntrue\n```", true],
    ])("should read %s out of the fence", async (_name, schema, reply, expected) => {
      const model = new ScriptedChatModel([rawStep(reply)], promptOnly);
      const { output } = await runCall(model, { messages: [user("x")], responseFormat: schema }, mode);
      expect(output.object).toEqual(expected);
      expect(output.meta.repairs.map((repair) => repair.kind)).toContain("stripped-wrapper");
    });
  });
});
