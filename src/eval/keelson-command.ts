import { mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { evaluate, type EvaluateOptions } from "./evaluate.js";
import type { EvalModel } from "./eval-model.js";
import { builtinProfiles, type EvalProfile } from "./eval-profile.js";
import type { EvalReport } from "./eval-report.js";
import { formatTable } from "./format-table.js";
import { renderHTMLReport } from "./html-report.js";
import { toJSONReport } from "./json-report.js";
import { startProgress } from "./progress.js";
import { writeStarterCases } from "./starter-cases.js";

/** Where the command writes, and what stops it (Ctrl-C when not given). */
export interface KeelsonCommandIO {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** Stops the run as Ctrl-C does. @default SIGINT */
  signal?: AbortSignal | undefined;
  /** Relative paths resolve from here. @default process.cwd() */
  cwd?: string | undefined;
}

const options = {
  model: { type: "string", multiple: true, short: "m" },
  cases: { type: "string", short: "c" },
  profiles: { type: "string", short: "p" },
  repeat: { type: "string" },
  concurrency: { type: "string" },
  json: { type: "string" },
  html: { type: "string" },
  record: { type: "string" },
  replay: { type: "string" },
  config: { type: "string" },
  "min-success-rate": { type: "string" },
  timeout: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

export const evalHelp = `Usage: keelson eval --model <provider:model> --cases <folder> [options]
       keelson eval --init [folder]


Runs every case on every model under every profile and prints, per model × profile, the success
rate, first-try rate, attempts, latency, repairs and tokens, and the recommended profile per model.

Options:
      --init [folder]            write starter cases to start from (default folder: eval-cases):
                                 tool calls, a follow-up turn after a tool result, restraint
  -m, --model <provider:model>   a model to evaluate, e.g. ollama:qwen3:8b (repeat for several)
  -c, --cases <folder>           a folder of case files, or of message lists with a tools_schema file
  -p, --profiles <list>          comma-separated: native,response-format,prompt (default: all three),
                                 or the name of a custom profile from --config
      --repeat <n>               runs of each case per model × profile (default 1)
      --concurrency <n>          calls in flight at once (default 1)
      --json <file>              write the report as JSON (with the seed benchmark's fields)
      --html <file>              write a self-contained HTML report with charts
      --record <folder>          record each model × profile's traffic as cassettes
      --replay <folder>          replay cassettes recorded with --record: offline, same figures
      --config <file>            a module exporting { models, profiles?, cases? } (models a name
                                 cannot express: instances or (profileOptions) => ChatModel)
      --min-success-rate <0..1>  exit 1 when any model × profile falls under it
      --timeout <ms>             fail a call that takes longer (a "timeout" failure)
  -h, --help                     show this help

Exit codes: 0 done, 1 under --min-success-rate, 2 bad arguments or setup, 130 stopped (Ctrl-C;
the partial report is still printed and written).
`;

class UsageError extends Error {}

/** Runs `keelson <argv>` and resolves with the exit code. */
export async function runKeelsonCommand(argv: readonly string[], io: Partial<KeelsonCommandIO> = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const cwd = io.cwd ?? process.cwd();
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    stdout.write(evalHelp);
    return command === undefined ? 2 : 0;
  }
  if (command !== "eval") {
    stderr.write(`keelson: unknown command '${command}'. Run: keelson eval --help\n`);
    return 2;
  }
  if (rest[0] === "--init") return initCases(rest.slice(1), cwd, stdout, stderr);
  const controller = new AbortController();
  const stopOnSignal = io.signal === undefined;
  let interrupts = 0;
  const onInterrupt = () => {
    if (++interrupts > 1) process.exit(130);
    stderr.write(
      "\nstopping: the runs in flight are dropped, the report covers what was measured (Ctrl-C again to quit at once)\n",
    );
    controller.abort();
  };
  if (stopOnSignal) process.on("SIGINT", onInterrupt);
  io.signal?.addEventListener("abort", () => controller.abort(), { once: true });
  try {
    const setup = await readSetup(rest, cwd);
    if (setup === "help") {
      stdout.write(evalHelp);
      return 0;
    }
    const progress = startProgress(stderr);
    let report: EvalReport;
    try {
      report = await evaluate({ ...setup.evaluate, signal: controller.signal, onResult: progress.update });
    } finally {
      progress.stop();
    }
    stdout.write(formatTable(report));
    if (setup.json !== undefined) write(setup.json, `${JSON.stringify(toJSONReport(report), null, 2)}\n`);
    if (setup.html !== undefined) write(setup.html, await renderHTMLReport(report));
    if (report.stopped) return 130;
    if (setup.minSuccessRate !== undefined) {
      const under = report.rows.filter((row) => row.successRate < setup.minSuccessRate!);
      for (const row of under) {
        stderr.write(
          `under --min-success-rate ${setup.minSuccessRate}: ${row.model.providerId}:${row.model.modelId} ${row.profile} (${row.successRate})\n`,
        );
      }
      if (under.length > 0) return 1;
    }
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    stderr.write(`keelson eval: ${message}\n${error instanceof UsageError ? "Run: keelson eval --help\n" : ""}`);
    return 2;
  } finally {
    if (stopOnSignal) process.off("SIGINT", onInterrupt);
  }
}

/** `keelson eval --init [folder]`: the starter cases written, and the command that runs them. */
function initCases(
  argv: readonly string[],
  cwd: string,
  stdout: KeelsonCommandIO["stdout"],
  stderr: KeelsonCommandIO["stderr"],
): number {
  if (argv.length > 1 || argv[0]?.startsWith("-")) {
    stderr.write("keelson eval: --init takes one folder and nothing else: keelson eval --init [folder]\n");
    return 2;
  }
  const folder = argv[0] ?? "eval-cases";
  try {
    const written = writeStarterCases(resolve(cwd, folder));
    stdout.write(
      `wrote ${written.length} starter cases to ${folder}:\n${written.map((path) => `  ${basename(path)}\n`).join("")}` +
        `edit them for your agent, then run: npx keelson eval --model ollama:qwen3:8b --cases ${folder}\n`,
    );
    return 0;
  } catch (error) {
    stderr.write(`keelson eval: ${(error as Error).message}\n`);
    return 2;
  }
}

interface Setup {
  evaluate: Omit<EvaluateOptions, "signal" | "onResult">;
  json?: string;
  html?: string;
  minSuccessRate?: number;
}

async function readSetup(argv: readonly string[], cwd: string): Promise<Setup | "help"> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: false, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const values = parsed.values;
  if (values.help) return "help";
  const path = (value: string | undefined) => (value === undefined ? undefined : resolve(cwd, value));
  const config = values.config === undefined ? {} : await loadConfig(path(values.config)!);
  const models: EvalModel[] = [...(values.model ?? []), ...(config.models ?? [])];
  if (models.length === 0) throw new UsageError("no model: give --model provider:model (or models in --config).");
  const cases =
    path(values.cases) ??
    (typeof config.cases === "string" ? resolve(dirname(path(values.config)!), config.cases) : config.cases);
  if (cases === undefined) throw new UsageError("no cases: give --cases <folder> (or cases in --config).");
  if (values.record !== undefined && values.replay !== undefined)
    throw new UsageError("--record and --replay exclude each other.");
  const profiles = selectProfiles(values.profiles, config.profiles ?? []);
  const setup: Setup = { evaluate: { cases, models, ...(profiles === undefined ? {} : { profiles }) } };
  if (values.repeat !== undefined) setup.evaluate.repeat = integer(values.repeat, "--repeat");
  else if (config.repeat !== undefined) setup.evaluate.repeat = config.repeat;
  if (values.concurrency !== undefined) setup.evaluate.concurrency = integer(values.concurrency, "--concurrency");
  else if (config.concurrency !== undefined) setup.evaluate.concurrency = config.concurrency;
  if (values.timeout !== undefined) setup.evaluate.timeoutMs = integer(values.timeout, "--timeout");
  if (values.record !== undefined) setup.evaluate.record = path(values.record)!;
  if (values.replay !== undefined) setup.evaluate.replay = path(values.replay)!;
  if (values.json !== undefined) setup.json = path(values.json)!;
  if (values.html !== undefined) setup.html = path(values.html)!;
  if (values["min-success-rate"] !== undefined) {
    const rate = Number(values["min-success-rate"]);
    if (!(rate >= 0 && rate <= 1))
      throw new UsageError(`--min-success-rate must be between 0 and 1, got ${values["min-success-rate"]}.`);
    setup.minSuccessRate = rate;
  }
  return setup;
}

/** What an eval config module exports (as `default`, or as named exports). */
interface EvalConfig {
  models?: EvalModel[] | undefined;
  profiles?: EvalProfile[] | undefined;
  cases?: EvaluateOptions["cases"] | undefined;
  repeat?: number | undefined;
  concurrency?: number | undefined;
}

async function loadConfig(file: string): Promise<EvalConfig> {
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(`--config ${file} could not be loaded: ${(error as Error).message}`);
  }
  const config = (loaded.default ?? loaded) as EvalConfig;
  if (config.models !== undefined && !Array.isArray(config.models)) {
    throw new UsageError(`--config ${file}: models must be a list (names, ChatModel instances or factories).`);
  }
  return config;
}

function selectProfiles(
  list: string | undefined,
  custom: readonly EvalProfile[],
): (string | EvalProfile)[] | undefined {
  if (list === undefined) return custom.length > 0 ? [...Object.keys(builtinProfiles), ...custom] : undefined;
  return list
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "")
    .map((name) => custom.find((profile) => profile.name === name) ?? name);
}

function integer(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`${flag} must be a positive integer, got ${text}.`);
  return value;
}

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}
