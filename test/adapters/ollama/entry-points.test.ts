import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../../..");
const work = mkdtempSync(join(tmpdir(), "keelson-ollama-entry-"));

// Makes `ollama` unresolvable for require() and import alike, as on a machine without the SDK.
const blocker = `
const Module = require("node:module");
const missing = (request) => Object.assign(new Error("Cannot find module '" + request + "'"), { code: "MODULE_NOT_FOUND" });
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === "ollama" || request.startsWith("ollama/")) throw missing(request);
  return resolveFilename.call(this, request, ...rest);
};
Module.register("data:text/javascript," + encodeURIComponent(\`
  export async function resolve(specifier, context, next) {
    if (specifier === "ollama" || specifier.startsWith("ollama/")) {
      throw Object.assign(new Error("Cannot find package 'ollama'"), { code: "ERR_MODULE_NOT_FOUND" });
    }
    return next(specifier, context);
  }\`));
`;

const script = `
const src = ${JSON.stringify(join(root, "src"))};
const keelson = await import(src + "/index.ts");
const testing = await import(src + "/testing/index.ts");
const model = new testing.ScriptedChatModel([testing.textStep("pong")]);
const output = await model.create({ messages: [{ role: "user", content: "ping" }] });
console.log("core:" + output.text);
const { OllamaChatModel } = await import(src + "/adapters/ollama/index.ts");
console.log("adapter-entry:loaded");
try {
  new OllamaChatModel("llama3.2");
  console.log("constructed");
} catch (error) {
  console.log("error:" + keelson.MissingDependencyError.isInstance(error) + ":" + error.packageName + ":" + error.message);
}
`;

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("OllamaChatModel entry points", () => {
  it("should leave keelson and keelson/testing working without the ollama package, and name it when a model is built", async () => {
    writeFileSync(join(work, "block-ollama.cjs"), blocker);
    writeFileSync(join(work, "check.mts"), script);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--require", join(work, "block-ollama.cjs"), "--import", "tsx", join(work, "check.mts")],
      { cwd: root },
    );
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toBe("core:pong");
    expect(lines[1]).toBe("adapter-entry:loaded");
    expect(lines[2]).toMatch(
      /^error:true:ollama:The package 'ollama' is needed for the Ollama adapter .* Run: npm install ollama$/,
    );
  });
});
