import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, runTools, withFallbacks } from "../../src/index.js";
import { ScriptedChatModel, errorStep, textStep, toolCallStep } from "../../src/testing/index.js";

describe("withFallbacks in runTools", () => {
  it("should run an agent loop whose steps each go to the model that can answer", async () => {
    const lookup = defineTool({
      name: "lookup",
      inputSchema: z.object({ id: z.string() }),
      execute: ({ id }) => `${id} is resolved`,
    });
    const primary = new ScriptedChatModel([toolCallStep("lookup", { id: "INC-1" }), errorStep({ statusCode: 503 })], {
      modelId: "primary",
      retry: { maxRetries: 0 },
    });
    const backup = new ScriptedChatModel([textStep("INC-1 is resolved.")], { modelId: "backup" });
    const run = await runTools({
      model: withFallbacks([primary, backup]),
      messages: [{ role: "user", content: "Status of INC-1?" }],
      tools: [lookup],
    });
    expect(run.text).toBe("INC-1 is resolved.");
    expect(run.steps.map((step) => step.output.meta.model.modelId)).toEqual(["primary", "backup"]);
    expect(backup.calls[0]!.messages.at(-1)).toMatchObject({ role: "tool", content: "INC-1 is resolved" });
  });
});
