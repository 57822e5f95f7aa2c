import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { evaluate, runKeelsonCommand, starterCases } from "../../src/eval/index.js";
import type { ProviderInput } from "../../src/index.js";
import { oracle, rungOf, textStep, toolCallStep, unionReply } from "./eval-models.js";

function sink() {
  let text = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

async function keelson(argv: string[]) {
  const [stdout, stderr] = [sink(), sink()];
  const code = await runKeelsonCommand(argv, { stdout: stdout.stream, stderr: stderr.stream, cwd: dir });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** A well-behaved model: the call the last user turn asks for (in each rung's form), or a short answer. */
const sensible = oracle((input: ProviderInput) => {
  const users = input.messages.filter((message) => message.role === "user");
  const last = JSON.stringify(users.at(-1)?.content ?? "");
  const call = (name: string, args: Record<string, unknown>) =>
    rungOf(input) === "native" ? toolCallStep(name, args, { id: "call_9" }) : unionReply(name, args);
  if (last.includes("status of incident")) return call("lookup_incident", { incident_id: "INC-1042" });
  if (last.includes("must look at") || last.includes("Page the owning team"))
    return call("page_oncall", { team: "identity", urgency: "high" });
  if (last.includes("Which service")) return textStep("The auth-api service is affected.");
  if (last.includes("Thanks")) return textStep("You are welcome!");
  return textStep("They respond to alerts and incidents outside working hours.");
}, "sensible");

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "keelson-init-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("keelson eval --init", () => {
  it("should write the starter cases, which a well-behaved model passes on every profile", async () => {
    const result = await keelson(["eval", "--init", "cases"]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toContain("wrote 6 starter cases to cases:");
    expect(result.stdout).toContain("npx keelson eval --model ollama:qwen3:8b --cases cases");
    const files = readdirSync(join(dir, "cases")).sort();
    expect(files).toEqual(Object.keys(starterCases).sort());
    // The follow-up case shows how an assistant's tool-call message and the tool's answer are written.
    const followUp = JSON.parse(readFileSync(join(dir, "cases", "03-follow-up-turn.json"), "utf8"));
    expect(followUp.messages.map((message: { role: string }) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "user",
    ]);
    expect(followUp.messages[2].content[0]).toMatchObject({ type: "tool-call", id: "call_1", name: "lookup_incident" });
    expect(followUp.messages[3]).toMatchObject({ toolCallId: "call_1", toolName: "lookup_incident" });

    const report = await evaluate({ cases: join(dir, "cases"), models: [sensible] });
    expect(report.rows.map((row) => [row.profile, row.cases, row.successes, row.failures])).toEqual([
      ["native", 6, 6, []],
      ["response-format", 6, 6, []],
      ["prompt", 6, 6, []],
    ]);
    expect(report.rows.map((row) => row.restraint)).toEqual(Array(3).fill({ cases: 3, toolCalls: 0 }));
    expect(report.recommendations.map((entry) => entry.profile)).toEqual(["native"]);
  });

  it("should catch a model that calls a tool where the starter cases want restraint", async () => {
    await keelson(["eval", "--init"]);
    const trigger = oracle(() => toolCallStep("lookup_incident", { incident_id: "INC-1042" }, { id: "c" }), "trigger");
    const report = await evaluate({ cases: join(dir, "eval-cases"), models: [trigger], profiles: ["native"] });
    expect(report.rows[0]!.restraint).toEqual({ cases: 3, toolCalls: 3 });
    expect(report.rows[0]!.failures.map((failure) => failure.case)).toEqual([
      "02-forced-tool-call",
      "03-follow-up-turn",
      "04-answer-from-tool-result",
      "05-restraint-small-talk",
      "06-restraint-general-question",
    ]);
  });

  it("should write nothing over existing cases, and refuse extra arguments", async () => {
    expect((await keelson(["eval", "--init", "cases"])).code).toBe(0);
    const again = await keelson(["eval", "--init", "cases"]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/01-tool-call\.json, .* exist already: remove them or pick another folder/);
    const extra = await keelson(["eval", "--init", "a", "b"]);
    expect(extra).toMatchObject({ code: 2, stderr: expect.stringContaining("--init takes one folder") });
  });
});
