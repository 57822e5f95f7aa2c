// The bar of issues 24 and 42: distinct names, no import cycle (between files anywhere, between the
// folders of core), and a call module entered through its index only. Folders are cut by concept, not by a file count.
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
  it("should have no import cycle between the folders of src/core", () => {
    const core = join(src, "core");
    const folderOf = (file: string) => relative(core, dirname(file)) || ".";
    // One edge per folder pair that imports the other. The files directly in src/core are the shared
    // vocabulary (messages, input, output, events: types a folder's files speak in), left out.
    const edges = new Map<string, Set<string>>();
    for (const file of all.filter((path) => path.startsWith(core + "/")))
      for (const target of importsOf(file).filter((path) => path.startsWith(core + "/"))) {
        const [from, to] = [folderOf(file), folderOf(target)];
        if (from !== to && from !== "." && to !== ".") edges.set(from, (edges.get(from) ?? new Set()).add(to));
      }
    const cycles: string[] = [];
    const state = new Map<string, "visiting" | "done">();
    const visit = (folder: string, path: string[]) => {
      if (state.get(folder) === "done") return;
      if (state.get(folder) === "visiting") {
        cycles.push([...path.slice(path.indexOf(folder)), folder].join(" → "));
        return;
      }
      state.set(folder, "visiting");
      for (const next of edges.get(folder) ?? []) visit(next, [...path, folder]);
      state.set(folder, "done");
    };
    for (const folder of edges.keys()) visit(folder, []);
    expect(edges.size).toBeGreaterThan(5);
    expect(cycles).toEqual([]);
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
