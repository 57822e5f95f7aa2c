import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const importPattern = /(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|(?:lazyRequire|require)\w*\s*(?:<[^>]*>)?\(\s*["']([^"']+)["']/g;

/** Every module a source file reaches at run time (type-only imports left out), and the packages among them. */
function reach(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, "utf8").replace(/^\s*(?:import|export)\s+type\s[^;]*;/gm, "");
    for (const match of source.matchAll(importPattern)) {
      const specifier = match[1] ?? match[2] ?? match[3]!;
      if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
      else packages.add(specifier);
    }
  };
  visit(resolve(root, entry));
  return { files, packages };
}

describe("BedrockChatModel", () => {
  it.each(["src/index.ts", "src/testing/index.ts"])("should not be reachable from %s, nor the AWS SDK", (entry) => {
    const { files, packages } = reach(entry);
    expect([...files].filter((file) => file.includes("/adapters/"))).toEqual([]);
    expect([...packages].filter((name) => name.startsWith("@aws-sdk/") || name.startsWith("@smithy/"))).toEqual([]);
  });

  it("should load the AWS SDK from keelson/bedrock (the check above can see it)", () => {
    expect(reach("src/adapters/bedrock/index.ts").packages).toContain("@aws-sdk/client-bedrock-runtime");
  });
});
