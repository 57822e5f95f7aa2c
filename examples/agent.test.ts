/**
 * Testing an agent (support/incident-agent.ts) without a network, two ways:
 *  - with ScriptedChatModel: you write what the model answers, step by step, and check what the
 *    agent sent and did — including how it copes with a rate limit and a broken tool call;
 *  - with a cassette: ReplayChatModel plays back a conversation that RecordingChatModel captured
 *    from a real adapter (here OpenAIChatModel against a loopback fake, see record-cassettes.ts).
 *
 *   npx vitest run --config examples/vitest.config.ts
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  ReplayChatModel,
  ScriptedChatModel,
  errorStep,
  keelsonMatchers,
  textStep,
  toolCallStep,
  type KeelsonMatchers,
} from "keelson/testing";
import { answerQuestion } from "./support/incident-agent.js";

expect.extend(keelsonMatchers);
declare module "vitest" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Assertion<T = any> extends KeelsonMatchers<T> {}
}

const question = "What is going on with INC-001?";

describe("incident agent, on ScriptedChatModel", () => {
  it("should look the incident up, send the tool result back, and answer", async () => {
    const model = new ScriptedChatModel([
      toolCallStep("lookup_incident", { incident_id: "INC-001" }),
      textStep("INC-001 is an auth-api outage; the identity team owns it."),
    ]);

    const run = await answerQuestion(model, question);

    expect(run.outputs[0]).toHaveToolCall("lookup_incident", { incident_id: "INC-001" });
    expect(run.outputs[1]).toHaveText(/auth-api outage/);
    // model.calls holds what a real provider would have been sent.
    const toolResult = model.calls[1]!.messages.at(-1);
    expect(toolResult).toMatchObject({
      role: "tool",
      toolName: "lookup_incident",
      content: expect.stringContaining("503"),
    });
    expect(model.remainingSteps).toBe(0);
  });

  it("should get through a 429 and a tool call with broken JSON, without the agent noticing", async () => {
    const model = new ScriptedChatModel(
      [
        errorStep({ statusCode: 429, headers: { "retry-after": "0" } }),
        toolCallStep("lookup_incident", '{"incident_id": "INC-001",'), // truncated JSON, as weak models send
        textStep("INC-001 is an auth-api outage."),
      ],
      { toolChoiceSupport: [] }, // pretend a provider that cannot force tools: same agent, same result
    );

    const run = await answerQuestion(model, question);

    expect(run.answer).toBe("INC-001 is an auth-api outage.");
    expect(run.outputs[0]).toHaveToolCall("lookup_incident", { incident_id: "INC-001" });
    expect(run.outputs[0]!.meta.repairs.map((repair) => repair.kind)).toContain("json-repaired");
  });
});

describe("incident agent, on a replayed cassette", () => {
  const cassette = fileURLToPath(new URL("./cassettes/incident-agent.openai.json", import.meta.url));

  it("should replay the recorded conversation offline, with the provider's own tool-call ids", async () => {
    const model = new ReplayChatModel(cassette);

    const run = await answerQuestion(model, question);

    expect(model.providerId).toBe("openai");
    expect(run.outputs[0]).toHaveToolCall("lookup_incident", { incident_id: "INC-001" });
    expect(run.outputs[0]!.toolCalls[0]!.id).toMatch(/^call_fake/);
    expect(run.outputs[1]).toHaveText(/auth-api outage/);
  });

  it("should fail loudly, with a diff, when the agent's requests drift from the recording", async () => {
    const model = new ReplayChatModel(cassette);

    const drifted = answerQuestion(model, "What is going on with INC-002?");

    await expect(drifted).rejects.toThrow(/no recording of this provider input/);
    await expect(drifted).rejects.toThrow('+       "content": "What is going on with INC-002?"');
  });
});
