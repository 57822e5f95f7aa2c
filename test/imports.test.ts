import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const providerSDKs = ["openai", "ollama", "@aws-sdk/client-bedrock-runtime"];

/**
 * Every package a module loads when it is imported, following the project's own imports (static
 * and dynamic). Provider SDKs go through lazyRequire, loaded only when a model is built: the runtime
 * test below checks that side.
 */
function reachablePackages(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, "utf8");
    const specifiers = [
      ...source.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^;]*?from\s+"([^"]+)"/gm),
      ...source.matchAll(/(?<!typeof )\bimport\(\s*"([^"]+)"\s*\)/g),
      ...source.matchAll(/\brequire\(\s*"([^"]+)"\s*\)/g),
    ].map((match) => match[1]!);
    for (const specifier of specifiers) {
      if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
      else packages.add(specifier.replace(/^node:.*/, "node"));
    }
  };
  visit(resolve(root, entry));
  return packages;
}

describe("package entry points", () => {
  it.each(["src/index.ts", "src/testing/index.ts"])("%s should load no provider SDK", (entry) => {
    const packages = reachablePackages(entry);
    expect(packages.size).toBeGreaterThan(0);
    for (const sdk of providerSDKs) expect(packages).not.toContain(sdk);
    expect(packages).not.toContain("vitest");
  });

  it("should see the imports it is looking for (the scan is not blind)", () => {
    const packages = reachablePackages("src/index.ts");
    expect(packages).toContain("eventemitter3");
    expect(packages).toContain("jsonrepair");
  });
});

describe("importing keelson at runtime", () => {
  it("should load no provider SDK until a model is built, and load it then", async () => {
    const { execFile } = await import("node:child_process");
    const { promisify } = await import("node:util");
    const script = `
      const { createRequire } = await import("node:module");
      const require = createRequire(import.meta.url);
      const loaded = () => Object.keys(require.cache).filter((path) => /node_modules\\/(openai|ollama|@aws-sdk)\\//.test(path)).length;
      const keelson = await import("./src/index.ts");
      await import("./src/testing/index.ts");
      const before = loaded();
      keelson.createChatModel("ollama:llama3.1");
      console.log(JSON.stringify({ before, after: loaded() }));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: root });
    expect(JSON.parse(stdout)).toEqual({ before: 0, after: expect.any(Number) });
    expect(JSON.parse(stdout).after).toBeGreaterThan(0);
  });
});
