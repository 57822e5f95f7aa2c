import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

const specifierPattern =
  /(?:import|export)\s[^"']*?from\s+["']([^"']+)["']|(?<!typeof )\bimport\(\s*["']([^"']+)["']\s*\)|\brequire\(\s*["']([^"']+)["']\s*\)/g;

/**
 * What a module loads when it is imported, following the project's own imports: the files, and
 * the packages among them. Type-only imports and comments are left out; provider SDKs behind
 * lazyRequire are not loaded at import and so are not listed (a runtime test covers that side).
 */
export function importGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/^\s*\/\/.*$/gm, "")
      .replace(/^\s*(?:import|export)\s+type\s[^;]*;/gm, "");
    for (const match of source.matchAll(specifierPattern)) {
      const specifier = (match[1] ?? match[2] ?? match[3])!;
      if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
      else packages.add(specifier.startsWith("node:") ? "node" : specifier);
    }
  };
  visit(resolve(projectRoot, entry));
  return { files, packages };
}
