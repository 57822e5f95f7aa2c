import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { projectRoot } from "./support/import-graph.js";

const readme = readFileSync(join(projectRoot, "README.md"), "utf8");
const blocks = (language: string) =>
  [...readme.matchAll(new RegExp("```" + language + "\\n([\\s\\S]*?)```", "g"))].map((match) => match[1]!);
const ci =
  readFileSync(join(projectRoot, ".ci/run"), "utf8") + readFileSync(join(projectRoot, ".ci/check-package"), "utf8");

/** README commands and where CI runs them (a command CI runs under another spelling says which). */
const runByCI: Record<string, string> = {
  "npm ci": "npm ci",
  "npm run example": "npm run example",
  "npm test": "npm test",
  "npm run docs": "npm run docs",
  "npm run examples": "npm run examples",
  "npm install keelson zod": 'npm install --no-audit --no-fund --silent "$work/$tarball" zod@^4',
};

describe("README", () => {
  const snippetDir = join(projectRoot, "test/.readme-snippets");
  afterAll(() => rmSync(snippetDir, { recursive: true, force: true }));

  it("should only show shell commands that CI runs", () => {
    const commands = blocks("sh").flatMap((block) =>
      block
        .split("\n")
        .map((line) => line.replace(/#.*$/, "").trim())
        .filter(Boolean)
        .flatMap((line) => line.split("&&").map((part) => part.trim())),
    );
    expect(commands.length).toBeGreaterThan(2);
    for (const command of commands) {
      expect(Object.keys(runByCI), `README command "${command}" is not known to run in CI`).toContain(command);
      expect(ci).toContain(runByCI[command]);
    }
  });

  it("should show TypeScript that compiles against the real API", () => {
    const snippets = blocks("ts");
    expect(snippets.length).toBeGreaterThan(4);
    mkdirSync(snippetDir, { recursive: true });
    const files = snippets.map((code, index) => {
      const file = join(snippetDir, `snippet-${index}.ts`);
      writeFileSync(file, `${code}\nexport {};\n`);
      return file;
    });
    const config = ts.readConfigFile(join(projectRoot, "tsconfig.json"), ts.sys.readFile);
    const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, projectRoot);
    const program = ts.createProgram(files, { ...options, noEmit: true, noUnusedLocals: false });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .filter((diagnostic) => diagnostic.file && files.includes(diagnostic.file.fileName))
      .map(
        (diagnostic) =>
          `${diagnostic.file!.fileName.split("/").pop()}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`,
      );
    expect(diagnostics).toEqual([]);
  }, 180_000); // one program over every snippet and the SDK types they reach: past a minute on a loaded 2-core machine
});
