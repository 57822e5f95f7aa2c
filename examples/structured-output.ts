/**
 * Structured output with `createStructure`: a zod schema in, a typed and validated object out —
 * whatever the provider can do. The same call runs on three capability profiles of the scripted
 * model, and once more with a reply that needs a repair and a re-ask. No network.
 *
 *   npx tsx examples/structured-output.ts
 */
import { z } from "zod";
import type { ChatModelOutput } from "keelson";
import {
  ScriptedChatModel,
  rawStep,
  textStep,
  toolCallStep,
  type ScriptedChatModelOptions,
  type ScriptedStep,
} from "keelson/testing";

const Postmortem = z.object({
  title: z.string(),
  severity: z.enum(["sev1", "sev2", "sev3"]),
  actionItems: z.array(z.string()).min(1),
});

const report = "09:12 auth-api deploy 4.2 shipped a bad TLS bundle; logins failed with 503 until the 09:40 rollback.";
const expected = {
  title: "auth-api TLS bundle outage",
  severity: "sev1",
  actionItems: ["Check the TLS bundle in CI"],
} as const;
const json = JSON.stringify(expected);

let failed = false;
async function run(label: string, steps: ScriptedStep[], options: ScriptedChatModelOptions): Promise<ChatModelOutput> {
  const model = new ScriptedChatModel(steps, options);
  const { object, output } = await model.createStructure({
    schema: Postmortem,
    name: "postmortem",
    messages: [{ role: "user", content: `Write the postmortem of: ${report}` }],
  });
  // `object` is typed from the schema: object.severity is "sev1" | "sev2" | "sev3".
  const sent = model.calls[0]!;
  const how = sent.responseFormat
    ? `responseFormat ${sent.responseFormat.type}`
    : sent.toolChoice
      ? `forced tool ${JSON.stringify(sent.toolChoice)}`
      : "instruction in the system prompt";
  console.log(`\n== ${label}`);
  console.log(`  the schema travelled as: ${how}   [rung: ${output.meta.toolChoice}]`);
  console.log(`  object: ${JSON.stringify(object)}`);
  console.log(
    `  attempts: ${output.meta.attempts.length}${output.meta.attempts.map((attempt, index) => (attempt.rejected ? `; #${index + 1} rejected: ${attempt.rejected.slice(0, 90)}…` : "")).join("")}`,
  );
  if (output.meta.repairs.length)
    console.log(`  repairs: ${output.meta.repairs.map((repair) => repair.kind).join(", ")}`);
  if (JSON.stringify(object) !== json) {
    console.error(`FAIL: ${label}: expected ${json}`);
    failed = true;
  }
  return output;
}

// 1. The provider takes a JSON-schema response format (OpenAI, Ollama, recent Claude on Bedrock).
await run("native structured output", [textStep(json)], {});

// 2. No structured output, but a single tool can be forced: the schema travels as a forced tool.
await run("no structured output: a forced tool", [toolCallStep("postmortem", { ...expected })], {
  supportsStructuredOutput: false,
});

// 3. Neither: the schema goes into the prompt, and keelson parses (and repairs) the reply.
const repaired = await run(
  "prompt only, with a reply that needs repair",
  [rawStep("Here it is:\n```json\n" + json.replace(/}$/, ",}") + "\n```")],
  { supportsStructuredOutput: false, toolChoiceSupport: [] },
);

// 4. A reply that does not match the schema is re-asked (within maxRepairAttempts, default 2).
const reasked = await run(
  "a schema mismatch, re-asked",
  [textStep('{"title":"auth-api outage","severity":"critical","actionItems":[]}'), textStep(json)],
  {},
);

if (repaired.meta.repairs.length === 0) {
  console.error("FAIL: expected the fenced, trailing-comma JSON to be repaired");
  failed = true;
}
if (reasked.meta.attempts.length !== 2 || !reasked.meta.attempts[0]!.rejected) {
  console.error("FAIL: expected the mismatching reply to be rejected and re-asked once");
  failed = true;
}
if (failed) process.exit(1);
console.log("\nok: the same createStructure call gave the same validated object on every profile.");
