// node .ci/check-chunks.mjs <dist>: importing keelson and an adapter must read the two entry files
// and one shared chunk, and that chunk must load no other file of keelson's up front (the call
// pipeline and an adapter's request code load later, on the first call). tsup.config.ts shapes the
// build for this.
import process from "node:process";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const dist = resolve(process.argv[2] ?? "dist");
const importPattern =
  /(?:^|[;}\n])\s*(?:import|export)\s[^;]*?from\s*["']([^"']+)["']|(?:^|[;}\n])\s*import\s*["']([^"']+)["']|\brequire\(["']([^"']+)["']\)/g;

/** The files of keelson's that `file` loads when it is loaded (not what it import()s later). */
function staticImports(file) {
  const source = readFileSync(file, "utf8");
  return [...source.matchAll(importPattern)]
    .map((match) => match[1] ?? match[2] ?? match[3])
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => join(dirname(file), specifier));
}

const entries = [
  "index",
  "adapters/openai/index",
  "adapters/azure-openai/index",
  "adapters/ollama/index",
  "adapters/bedrock/index",
  "adapters/anthropic/index",
];
for (const ext of ["js", "cjs"]) {
  const chunks = new Set(entries.flatMap((entry) => staticImports(join(dist, `${entry}.${ext}`))));
  if (chunks.size !== 1)
    throw new Error(`${ext}: the entries load ${[...chunks].join(", ") || "nothing"}, not one shared chunk`);
  const [chunk] = chunks;
  const more = staticImports(chunk);
  if (more.length > 0) throw new Error(`${ext}: the shared chunk loads ${more.join(", ")} up front`);
  const later = readFileSync(chunk, "utf8").match(/import\(["']\.\/[^"']+["']\)/g) ?? [];
  process.stdout.write(
    `${ext}: entries + ${chunk.slice(dist.length + 1)}; loaded on a first call (the call pipeline, each adapter's request code): ${later.length} files\n`,
  );
}
