import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../src/index.js";
import { ScriptedChatModel, keelsonMatchers, textStep, toolCallStep } from "../../src/testing/index.js";

expect.extend(keelsonMatchers);
const lookup = defineTool({
  name: "lookup_incident",
  inputSchema: z.object({ incident_id: z.string(), verbose: z.boolean().optional() }),
});

const user = (content: string) => ({ role: "user" as const, content });

describe("keelsonMatchers", () => {
  it("should match a tool call by name and by arguments, asymmetric matchers included", async () => {
    const model = new ScriptedChatModel([toolCallStep("lookup_incident", { incident_id: "INC-001", verbose: true })]);
    const output = await model.create({ messages: [{ role: "user", content: "INC-001?" }], tools: [lookup] });
    expect(output).toHaveToolCall("lookup_incident");
    expect(output).toHaveToolCall("lookup_incident", { incident_id: "INC-001", verbose: true });
    expect(output).toHaveToolCall("lookup_incident", expect.objectContaining({ incident_id: "INC-001" }));
    expect(output.message).toHaveToolCall("lookup_incident");
    expect(output).not.toHaveToolCall("lookup_incident", { incident_id: "INC-002" });
    expect(output).not.toHaveToolCall("page_oncall");
    expect(() => expect(output).toHaveToolCall("page_oncall")).toThrow(
      /expected a call to 'page_oncall'; the output has lookup_incident\(/,
    );
  });

  it("should match arguments as a subset, as eval's expect.toolCalls args do", async () => {
    const nested = defineTool({
      name: "page_oncall",
      inputSchema: z.object({ team: z.object({ name: z.string(), region: z.string() }), tags: z.array(z.string()) }),
    });
    const model = new ScriptedChatModel([
      toolCallStep("page_oncall", { team: { name: "identity", region: "eu" }, tags: ["auth", "p1"] }),
    ]);
    const output = await model.create({ messages: [user("page")], tools: [nested] });
    // Extra arguments, at any depth, are fine.
    expect(output).toHaveToolCall("page_oncall", { team: { name: "identity" } });
    expect(output).toHaveToolCall("page_oncall", { tags: ["auth", expect.any(String)] });
    // A missing or different argument is not; arrays match element by element.
    expect(output).not.toHaveToolCall("page_oncall", { team: { name: "payments" } });
    expect(output).not.toHaveToolCall("page_oncall", { tags: ["auth"] });
    expect(output).not.toHaveToolCall("page_oncall", { urgency: undefined });
    expect(() => expect(output).toHaveToolCall("page_oncall", { team: { region: "us" } })).toThrow(
      /expected a call to 'page_oncall' with arguments containing/,
    );
  });

  it("should match text exactly or by pattern", async () => {
    const model = new ScriptedChatModel([textStep("INC-001 is an auth-api outage.")]);
    const output = await model.create({ messages: [{ role: "user", content: "x" }] });
    expect(output).toHaveText("INC-001 is an auth-api outage.");
    expect(output).toHaveText(/auth-api/);
    expect(output).not.toHaveText("something else");
    expect(() => expect(output).toHaveText("nope")).toThrow(/it is "INC-001 is an auth-api outage."/);
  });

  it("should print asymmetric matchers readably in a toHaveToolCall failure", async () => {
    const model = new ScriptedChatModel([toolCallStep("lookup_incident", { incident_id: "X-1" })]);
    const output = await model.create({ messages: [user("x")], tools: [lookup] });
    const failure = (() => {
      try {
        expect(output).toHaveToolCall("lookup_incident", { incident_id: expect.stringMatching(/^INC-/) });
      } catch (error) {
        return (error as Error).message;
      }
      return "passed";
    })();
    expect(failure).toMatch(/StringMatching.*\^INC-/);
  });

  it("should read a .not failure as a sentence", async () => {
    const model = new ScriptedChatModel([toolCallStep("lookup_incident", { incident_id: "X-1" })]);
    const output = await model.create({ messages: [user("x")], tools: [lookup] });
    expect(() => expect(output).not.toHaveToolCall("lookup_incident")).toThrow(/expected no call to 'lookup_incident'/);
  });
});
