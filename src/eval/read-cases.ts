import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import type { EvalCase, EvalTool } from "./eval-case.js";
import { parseCase, parseTools } from "./parse-case.js";

/** The file that makes a folder a seed-format suite: an OpenAI-style function list. */
const toolsSchemaFile = /^tools_schema(\.json)?$/;

/**
 * The cases in a folder, in file-name order. Each `*.json` file is a keelson case file
 * (`{ name?, messages, tools, toolChoice?, expect? }`); a folder that also holds a `tools_schema`
 * file is in the seed's format: every other file is a bare message list, offered those tools.
 */
export function readCases(folder: string): EvalCase[] {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new TypeError(`No case folder at ${folder}: give a folder of case files (*.json).`);
  }
  const names = readdirSync(folder).sort();
  const schemaName = names.find((name) => toolsSchemaFile.test(name));
  const tools: EvalTool[] | undefined =
    schemaName === undefined ? undefined : parseTools(readJSON(join(folder, schemaName)), join(folder, schemaName));
  const files = names.filter((name) => name.endsWith(".json") && name !== schemaName);
  if (files.length === 0) throw new TypeError(`${folder} holds no case files (*.json).`);
  return files.map((name) => {
    const path = join(folder, name);
    const parsed = parseCase(readJSON(path), path, { name: basename(name, ".json"), ...(tools ? { tools } : {}) });
    return { ...parsed, source: path };
  });
}

function readJSON(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new TypeError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
}
