import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { RecordingChatModel, ReplayChatModel, ScriptedChatModel, textStep } from "../../src/testing/index.js";
import { projectRoot } from "../support/import-graph.js";

// The README and docs/testing-agents.md put the cassette beside the test file; a project whose
// path holds a space (a home folder "Jane Doe") must find it there.
describe("cassette path beside a test file (README, docs/testing-agents.md, examples)", () => {
  const root = mkdtempSync(join(tmpdir(), "keelson cassette "));
  const testFile = pathToFileURL(join(root, "test", "triage.test.ts")).href; // what import.meta.url holds
  const realPath = join(root, "test", "cassettes", "triage.json");
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("should show why `.pathname` is wrong: it keeps the space percent-encoded", () => {
    expect(new URL("./cassettes/triage.json", testFile).pathname).not.toBe(realPath);
  });

  it("should record beside the test file and replay from there with fileURLToPath", async () => {
    const cassette = fileURLToPath(new URL("./cassettes/triage.json", testFile));
    expect(cassette).toBe(realPath);
    mkdirSync(join(root, "test"), { recursive: true });
    const recorder = new RecordingChatModel(new ScriptedChatModel([textStep("recorded")]), { cassette });
    await recorder.create({ messages: [{ role: "user", content: "hi" }] });
    expect(existsSync(realPath)).toBe(true);
    const replayed = await new ReplayChatModel(cassette).create({ messages: [{ role: "user", content: "hi" }] });
    expect(replayed.text).toBe("recorded");
  });

  it("should not show `.pathname` for a file path in the README, the docs or the examples", () => {
    const files = [
      "README.md",
      "docs/testing-agents.md",
      "examples/agent.test.ts",
      "examples/four-providers.ts",
      "examples/ollama-forced-tool-call.ts",
    ];
    for (const file of files) {
      const code = readFileSync(join(projectRoot, file), "utf8").replace(/\/\/.*$/gm, "");
      expect(code, file).not.toMatch(/import\.meta\.url\)\.pathname|\.pathname\)/);
    }
  });
});
