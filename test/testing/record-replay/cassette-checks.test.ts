// A cassette truncated or edited by hand is a CassetteError naming the file and what is wrong —
// never a wrong answer, a bare SyntaxError or TypeError — in ReplayChatModel and in `keelson eval
// --replay`. And a RecordingChatModel scrubs every credential the wrapped model holds, whatever its shape.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AnthropicChatModel } from "../../../src/adapters/anthropic/index.js";
import { BedrockChatModel } from "../../../src/adapters/bedrock/index.js";
import { OllamaChatModel } from "../../../src/adapters/ollama/index.js";
import { OpenAIChatModel } from "../../../src/adapters/openai/index.js";
import { AzureOpenAIChatModel } from "../../../src/adapters/azure-openai/index.js";
import { runKeelsonCommand } from "../../../src/eval/index.js";
import { createOpenAICompatibleModel } from "../../../src/openai-compatible-presets.js";
import { ChatModelError } from "../../../src/index.js";
import type { ChatModel } from "../../../src/index.js";
import {
  CassetteError,
  RecordingChatModel,
  ReplayChatModel,
  ScriptedChatModel,
  streamStep,
  toolCallStep,
} from "../../../src/testing/index.js";
import { callModes, settleCall, user } from "../../support/run-modes.js";

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "keelson-cassette-checks-"));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const weather = { name: "weather", inputSchema: { type: "object", properties: { city: { type: "string" } } } };
const inputs = [{ messages: [user("weather?")], tools: [weather] }, { messages: [user("hello")] }];

/** A cassette of a tool call (create) and a streamed text (createStream), recorded from the scripted model. */
async function recorded(): Promise<string> {
  const path = join(folder, "recorded.json");
  const live = new ScriptedChatModel([
    toolCallStep("weather", { city: "Oslo" }, { id: "call_1" }),
    streamStep(["Hel", "lo"]),
  ]);
  const recording = new RecordingChatModel(live, { cassette: path });
  await recording.create(inputs[0]!);
  await recording.createStream(inputs[1]!).final();
  return path;
}

/** Both recorded calls replayed; what each gave or threw. */
async function replayAll(path: string): Promise<unknown[]> {
  let model: ReplayChatModel;
  try {
    model = new ReplayChatModel(path);
  } catch (error) {
    return [error];
  }
  const results: unknown[] = [];
  for (const [index, input] of inputs.entries()) {
    const mode = callModes[index]!;
    const { output, error } = await settleCall(model, input, mode);
    results.push(error ?? output);
  }
  return results;
}

function expectCassetteError(error: unknown, path: string): asserts error is CassetteError {
  expect(CassetteError.isInstance(error), String(error)).toBe(true);
  expect((error as CassetteError).message).toContain(path);
}

describe("ReplayChatModel over a damaged cassette", () => {
  it("should name the file when the cassette is cut at any point", async () => {
    const path = await recorded();
    const text = readFileSync(path, "utf8");
    const cut = join(folder, "cut.json");
    fc.assert(
      fc.property(fc.nat({ max: text.trimEnd().length - 1 }), (length) => {
        writeFileSync(cut, text.slice(0, length));
        let thrown: unknown;
        try {
          new ReplayChatModel(cut);
        } catch (error) {
          thrown = error;
        }
        expectCassetteError(thrown, cut);
      }),
      { numRuns: 150 },
    );
  });

  it("should name the file and the field of a tampered toolCalls", async () => {
    const path = await recorded();
    const cassette = JSON.parse(readFileSync(path, "utf8"));
    cassette.interactions[0].output.toolCalls = "weather(Oslo)";
    writeFileSync(path, JSON.stringify(cassette));
    const [error] = await replayAll(path);
    expectCassetteError(error, path);
    expect(error.field).toBe("interactions[0].output.toolCalls");
  });

  it("should answer as recorded or fail with keelson's own error, whatever one field is replaced with", async () => {
    const path = await recorded();
    const original = JSON.parse(readFileSync(path, "utf8"));
    const expected = await replayAll(path);
    const paths: (string | number)[][] = [];
    const walk = (value: unknown, at: (string | number)[]) => {
      if (value === null || typeof value !== "object") return;
      if (at.at(-1) === "raw") return; // What the replay hands back untouched.
      for (const [key, child] of Object.entries(value)) {
        const next = [...at, Array.isArray(value) ? Number(key) : key];
        paths.push(next);
        walk(child, next);
      }
    };
    walk(original, []);
    const tampered = join(folder, "tampered.json");
    const replacement = fc.constantFrom(null, "x", 7, true, [], {}, [1], undefined);
    await fc.assert(
      fc.asyncProperty(fc.nat(), replacement, async (pick, value) => {
        const at = paths[pick % paths.length]!;
        const copy = structuredClone(original);
        let parent = copy;
        for (const key of at.slice(0, -1)) parent = parent[key];
        // A value of another JSON type (a same-typed edit is a valid cassette that says something else).
        const kind = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
        fc.pre(kind(parent[at.at(-1)!]) !== kind(value));
        if (value === undefined) delete parent[at.at(-1)!];
        else parent[at.at(-1)!] = value;
        writeFileSync(tampered, JSON.stringify(copy));
        const results = await replayAll(tampered);
        results.forEach((result, index) => {
          if (result instanceof Error) {
            // keelson's own error, or the replay's "no recording of this input" naming the file (a
            // tampered answer keelson re-asks about): never a bare TypeError or SyntaxError.
            const own = ChatModelError.isInstance(result) || result.message.includes(tampered);
            expect(own, `${at.join(".")}: ${result}`).toBe(true);
            expect(result instanceof TypeError || result instanceof SyntaxError, String(result)).toBe(false);
          } else {
            // An answer is the recorded one: never a wrong answer.
            const answer = result as { text: string; toolCalls: unknown[] };
            const recordedAnswer = expected[index] as { text: string; toolCalls: unknown[] };
            expect(answer.text).toBe(recordedAnswer.text);
          }
        });
      }),
      { numRuns: 120 },
    );
  });
});

describe("keelson eval --replay over a damaged cassette", () => {
  it("should name the cassette and say what is wrong (exit 2), not a SyntaxError", async () => {
    const dir = join(folder, "cassettes");
    const source = "examples/eval/cassettes/cases/ollama-qwen3-8b.native.json";
    const target = join(dir, "ollama-qwen3-8b.native.json");
    rmSync(dir, { recursive: true, force: true });
    (await import("node:fs")).mkdirSync(dir, { recursive: true });
    copyFileSync(source, target);
    writeFileSync(target, readFileSync(target, "utf8").slice(0, 500));
    let stderr = "";
    const sink = (onText: (text: string) => void) =>
      new Writable({
        write(chunk, _encoding, done) {
          onText(String(chunk));
          done();
        },
      });
    const code = await runKeelsonCommand(
      ["eval", "-m", "ollama:qwen3:8b", "-c", "examples/eval/cases", "--profiles", "native", "--replay", dir],
      { stdout: sink(() => undefined), stderr: sink((text) => (stderr += text)) },
    );
    expect(code).toBe(2);
    expect(stderr).toContain(target);
    expect(stderr).toContain("not valid JSON");
    expect(stderr).not.toMatch(/^SyntaxError/m);
  });
});

describe("RecordingChatModel and the wrapped model's credentials", () => {
  const together = "3f9a1c0b7d2e4f6a8b1c3d5e7f9a0b2c4d6e8f0a1b3c5d7e9f1a2b4c6d8e0f1a";
  const azureKey = "5d41402abc4b2a76b9719d911017c592";
  const awsSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
  const awsToken = "IQoJb3JpZ2luX2VjEXAMPLESESSIONTOKEN0123456789";
  const ollamaToken = "plain-gateway-token-with-no-known-shape";
  const models: [string, () => ChatModel, string[]][] = [
    ["a Together preset", () => createOpenAICompatibleModel("together", "m", { apiKey: together }), [together]],
    ["OpenAI", () => new OpenAIChatModel("m", { apiKey: together }), [together]],
    [
      "Azure",
      () => new AzureOpenAIChatModel("d", { apiKey: azureKey, endpoint: "https://x.openai.azure.com" }),
      [azureKey],
    ],
    ["Anthropic", () => new AnthropicChatModel("m", { apiKey: together }), [together]],
    [
      "Bedrock",
      () =>
        new BedrockChatModel("m", {
          region: "us-east-1",
          credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: awsSecret, sessionToken: awsToken },
        }),
      [awsSecret, awsToken],
    ],
    ["Ollama", () => new OllamaChatModel("m", { headers: { Authorization: `Bearer ${ollamaToken}` } }), [ollamaToken]],
  ];

  it.each(models)("should write none of %s's credentials echoed in a reply", async (_name, make, secrets) => {
    const inner = make();
    // The reply echoes every credential the model holds: in its text, its raw body, an error message.
    const echoed = secrets.join(" and ");
    const hooks = inner as unknown as { _create: unknown; _createStream: unknown };
    hooks._create = async () => ({
      text: `your key is ${echoed}`,
      toolCalls: [],
      finishReason: "stop",
      raw: { debug: { key: echoed } },
    });
    const path = join(folder, "credentials.json");
    await new RecordingChatModel(inner, { cassette: path, retry: { maxRetries: 0 } }).create({
      messages: [user("hi")],
    });
    const written = readFileSync(path, "utf8");
    for (const secret of secrets) expect(written).not.toContain(secret);
    expect(written).toContain("your key is");
  });
});
