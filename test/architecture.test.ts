// The bar of issue 24, kept: a reader meets small folders, distinct names, no import cycle, and a
// call module entered through its index only.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "./support/import-graph.js";

const src = join(projectRoot, "src");
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : name.endsWith(".ts") ? [path] : [];
  });
const all = files(src);
const specifier = /(?:import|export)\s[^"';]*?from\s+["'](\.[^"']+)["']|\bimport\(\s*["'](\.[^"']+)["']\s*\)/g;

/** Every relative import of a file (type-only ones included: a cycle of types is still a cycle for a reader). */
function importsOf(file: string): string[] {
  const source = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
  return [...source.matchAll(specifier)].map((match) =>
    resolve(dirname(file), (match[1] ?? match[2])!.replace(/\.js$/, ".ts")),
  );
}

describe("src", () => {
  it("should have at most 10 files in any src/core folder", () => {
    const counts = new Map<string, number>();
    for (const file of all.filter((path) => path.startsWith(join(src, "core"))))
      counts.set(relative(src, dirname(file)), (counts.get(relative(src, dirname(file))) ?? 0) + 1);
    expect([...counts].filter(([, count]) => count > 10)).toEqual([]);
    expect(counts.get("core/call")).toBeGreaterThan(0);
  });

  it("should have no two file names that differ only by word order or a plural", () => {
    const key = (file: string) =>
      relative(src, file)
        .replace(/\.ts$/, "")
        .split("/")
        .pop()!
        .split("-")
        .map((word) => word.replace(/s$/, ""))
        .sort()
        .join("-");
    const seen = new Map<string, string>();
    const clashes: string[] = [];
    for (const file of all.filter((path) => !path.endsWith("index.ts"))) {
      const other = seen.get(key(file));
      if (other) clashes.push(`${other} ~ ${relative(src, file)}`);
      seen.set(key(file), relative(src, file));
    }
    expect(clashes).toEqual([]);
  });

  it("should have no import cycle anywhere in src", () => {
    const layers = [src];
    const state = new Map<string, "visiting" | "done">();
    const cycles: string[] = [];
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "visiting") {
        const cycle = [...path.slice(path.indexOf(file)), file];
        if (cycle.every((step) => layers.some((layer) => step.startsWith(layer))))
          cycles.push(cycle.map((step) => relative(src, step)).join(" → "));
        return;
      }
      state.set(file, "visiting");
      for (const next of importsOf(file)) visit(next, [...path, file]);
      state.set(file, "done");
    };
    for (const file of all.filter((path) => layers.some((layer) => path.startsWith(layer)))) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it("should enter the call module through its index only", () => {
    const call = join(src, "core", "call");
    const reaching = all
      .filter((file) => !file.startsWith(call))
      .flatMap((file) =>
        importsOf(file)
          .filter((target) => target.startsWith(call) && target !== join(call, "index.ts"))
          .map((target) => `${relative(src, file)} → ${relative(src, target)}`),
      );
    expect(reaching).toEqual([]);
  });
});
