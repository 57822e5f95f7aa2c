// Keeps the hop counts of docs/architecture.md honest: the frames of keelson's own code between a
// call and the adapter's hook, read off a stack trace taken inside the adapter, must be the ones the
// doc lists ("One create()" and "One stream" tables), in order.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ScriptedStep } from "../../src/testing/index.js";
import { ScriptedChatModel } from "../../src/testing/index.js";
import { projectRoot } from "../support/import-graph.js";

/** The src/core frames (file and function) above the adapter's hook, innermost first. */
function coreFrames(stack: string): string[] {
  return stack
    .split("\n")
    .map((line) =>
      /at (?:async )?(?:(\S+) (?:\[as \w+\] )?)?\(?.*?\/src\/(core\/[\w/-]+\.ts):\d+:\d+\)?$/.exec(line.trim()),
    )
    .filter((match): match is RegExpExecArray => match !== null)
    .map(
      (match) =>
        `${match[2]} ${(match[1] ?? "(anonymous)").replace(/^Object\./, "").replace(/^\w*ChatModel\./, "ChatModel.")}`,
    );
}

/** The frames a table of the doc lists under `heading` (its second and third columns). */
function documented(heading: string): string[] {
  const doc = readFileSync(join(projectRoot, "docs/architecture.md"), "utf8");
  const section = doc.slice(doc.indexOf(heading));
  const table = section.slice(0, section.indexOf("\n\n", section.indexOf("|")));
  return [...table.matchAll(/^\| \d+ \| `([^`]+)` \| `([^`]+)` \|/gm)].map((row) => `${row[1]} ${row[2]}`);
}

async function traceOf(mode: "create" | "createStream"): Promise<string> {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 100;
  let stack = "";
  const step: ScriptedStep = () => {
    stack = new Error("probe").stack!;
    return { type: "text", text: "hi" };
  };
  try {
    const model = new ScriptedChatModel([step]);
    const input = { messages: [{ role: "user" as const, content: "Hi" }] };
    if (mode === "create") await model.create(input);
    else for await (const _chunk of model.createStream(input));
  } finally {
    Error.stackTraceLimit = limit;
  }
  return stack;
}

describe("docs/architecture.md", () => {
  it("should list the frames of one create() between the call and the adapter's _create", async () => {
    const frames = coreFrames(await traceOf("create"));
    expect(frames.length).toBeGreaterThan(2);
    expect(frames).toEqual(documented("### One create()"));
  });

  it("should list the frames of one stream between the call and the adapter's _createStream", async () => {
    const frames = coreFrames(await traceOf("createStream"));
    expect(frames.length).toBeGreaterThan(2);
    expect(frames).toEqual(documented("### One stream"));
  });
});
