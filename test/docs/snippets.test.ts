import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { projectRoot } from "../support/import-graph.js";

// Every TypeScript block of docs/*.md must compile against the real exports, as the README's do
// (test/readme.test.ts). A block may use names the page's prose gives it (a `model`, the
// `messages`, a tool): those are declared here, only when the block neither imports nor declares them.
const given: Record<string, string> = {
  model: `declare const model: import("keelson").ChatModel;`,
  other: `declare const other: import("keelson").ChatModel;`,
  messages: `declare const messages: import("keelson").Message[];`,
  tools: `declare const tools: import("keelson").Tool[];`,
  lookupIncident: `declare const lookupIncident: import("keelson").Tool;`,
  answer: `declare const answer: import("keelson").Tool;`,
  output: `declare const output: import("keelson").ChatModelOutput;`,
  steps: `declare const steps: import("keelson/testing").ScriptedStep[];`,
  tracer: `declare const tracer: import("@opentelemetry/api").Tracer;`,
  log: `declare const log: { warn(message: string): void };`,
  myAgent: `declare function myAgent(model: import("keelson").ChatModel, question: string): Promise<string>;`,
  OpenAIChatModel: `import { OpenAIChatModel } from "keelson/openai";`,
  OllamaChatModel: `import { OllamaChatModel } from "keelson/ollama";`,
  RecordingChatModel: `import { RecordingChatModel } from "keelson/testing";`,
  ReplayChatModel: `import { ReplayChatModel } from "keelson/testing";`,
  ScriptedChatModel: `import { ScriptedChatModel } from "keelson/testing";`,
  expect: `import { expect } from "vitest";`,
  MyChatModel: `declare class MyChatModel extends (await import("keelson")).ChatModel { constructor(modelId: string, options: object); readonly providerId: string; protected _create(): never; protected _createStream(): never }`,
  MyRequestBody: `type MyRequestBody = { tools?: unknown[]; tool_choice?: unknown; response_format?: unknown };`,
  myFormatOf: `declare function myFormatOf(body: unknown): import("keelson/testing").WireSummary["responseFormat"];`,
  myReplyWith: `declare function myReplyWith(text: string): unknown;`,
  mySSEOf: `declare function mySSEOf(text: string): string;`,
  recordedJSON: `declare const recordedJSON: string;`,
  recordedSSE: `declare const recordedSSE: string;`,
};

function preamble(code: string): string {
  return Object.entries(given)
    .filter(([name]) => new RegExp(`\\b${name}\\b`).test(code))
    .filter(
      ([name]) =>
        !new RegExp(`import[^;]*\\b${name}\\b[^;]*from|(?:const|let|function|class|type)\\s+${name}\\b`).test(code),
    )
    .map(([, declaration]) => declaration)
    .join("\n");
}

describe("docs/*.md", () => {
  const snippetDir = join(projectRoot, "test/.docs-snippets");
  afterAll(() => rmSync(snippetDir, { recursive: true, force: true }));

  it("should show TypeScript that compiles against the real API", () => {
    rmSync(snippetDir, { recursive: true, force: true });
    const files: string[] = [];
    for (const page of readdirSync(join(projectRoot, "docs")).filter((name) => name.endsWith(".md"))) {
      const markdown = readFileSync(join(projectRoot, "docs", page), "utf8");
      [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].forEach((match, index) => {
        const code = match[1]!;
        // The walkthrough's agent and its test import each other by path: keep that layout.
        const path = /export async function triage\b/.test(code)
          ? "walkthrough/src/triage.ts"
          : code.includes('"../src/triage.js"')
            ? "walkthrough/test/triage.test.ts"
            : `${page.replace(/\.md$/, "")}-${index}.ts`;
        const file = join(snippetDir, path);
        mkdirSync(join(file, ".."), { recursive: true });
        writeFileSync(file, `${preamble(code)}\n${code}\nexport {};\n`);
        files.push(file);
      });
    }
    expect(files.length).toBeGreaterThan(15);
    const config = ts.readConfigFile(join(projectRoot, "tsconfig.json"), ts.sys.readFile);
    const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, projectRoot);
    const program = ts.createProgram([...files, join(projectRoot, "test/support/vitest-matchers.d.ts")], {
      ...options,
      noEmit: true,
      noUnusedLocals: false,
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .filter((diagnostic) => diagnostic.file && files.includes(diagnostic.file.fileName))
      .map(
        (diagnostic) =>
          `${diagnostic.file!.fileName.slice(snippetDir.length + 1)}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`,
      );
    expect(diagnostics).toEqual([]);
  }, 180_000); // one program over every snippet and the SDK types they reach: past a minute on a loaded 2-core machine
});
