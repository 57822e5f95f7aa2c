import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const work = mkdtempSync(join(tmpdir(), "keelson-otel-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("keelson/otel without @opentelemetry/api", () => {
  it("should fail to import with the MissingDependencyError naming npm install @opentelemetry/api", async () => {
    // Makes @opentelemetry/api unresolvable, as in an app that never installed it.
    writeFileSync(
      join(work, "block-otel.cjs"),
      `const Module = require("node:module");
       const resolveFilename = Module._resolveFilename;
       Module._resolveFilename = function (request, ...rest) {
         if (request === "@opentelemetry/api") throw Object.assign(new Error("Cannot find module '@opentelemetry/api'"), { code: "MODULE_NOT_FOUND" });
         return resolveFilename.call(this, request, ...rest);
       };`,
    );
    writeFileSync(
      join(work, "check.mts"),
      `const keelson = await import(${JSON.stringify(join(root, "src/index.ts"))});
       try { await import(${JSON.stringify(join(root, "src/otel/index.ts"))}); console.log(JSON.stringify({ loaded: true })); }
       catch (error) { console.log(JSON.stringify({ missing: keelson.MissingDependencyError.isInstance(error), packageName: error.packageName, message: error.message })); }`,
    );
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--require", join(work, "block-otel.cjs"), "--import", "tsx", join(work, "check.mts")],
      { cwd: root, timeout: 30_000 },
    );
    expect(JSON.parse(stdout)).toEqual({
      missing: true,
      packageName: "@opentelemetry/api",
      message:
        "The package '@opentelemetry/api' is needed for OpenTelemetry spans (keelson/otel) but is not installed. Run: npm install @opentelemetry/api",
    });
  }, 40_000);
});
