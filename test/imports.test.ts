import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const providerSDKs = ["openai", "ollama", "@aws-sdk/client-bedrock-runtime"];

/** Every package a module can load, following the project's own imports (static and dynamic). */
function reachablePackages(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, "utf8");
    const specifiers = [
      ...source.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^;]*?from\s+"([^"]+)"/gm),
      ...source.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g),
      ...source.matchAll(/lazyRequire<[^>]*>\(\s*"([^"]+)"/g),
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
