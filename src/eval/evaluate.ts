import { performance } from "node:perf_hooks";
import type { ChatModelLike } from "../core/model/chat-model-like.js";
import type { ChatModelInput } from "../core/input.js";
import type { ChatModelOutput } from "../core/output.js";
import type { EvalCase } from "./eval-case.js";
import { buildProfileModel, type EvalModel, type EvalModelId } from "./eval-model.js";
import { resolveProfiles, type EvalProfile } from "./eval-profile.js";
import type { EvalCaseResult, EvalReport } from "./eval-report.js";
import { checkExpectation } from "./check-expectation.js";
import { failureKindOf } from "./failure-kind.js";
import { parseCase } from "./parse-case.js";
import { readCases } from "./read-cases.js";
import { recommendProfiles } from "./recommend-profile.js";
import { round, summarizeRow } from "./summarize-row.js";

export interface EvaluateOptions {
  /** A folder of case files (see `readCases`), or the cases themselves (case-file objects). */
  cases: string | readonly (EvalCase | Record<string, unknown>)[];
  /** `provider:model` names, factories `(profileOptions) => ChatModel`, or `ChatModel` instances. */
  models: readonly EvalModel[];
  /** Profile names (`native`, `response-format`, `prompt`) or custom `{ name, options }`. @default all three */
  profiles?: readonly (string | EvalProfile)[] | undefined;
  /** Runs of each case per model × profile. @default 1 */
  repeat?: number | undefined;
  /** Calls in flight at once, across every model and profile. @default 1 */
  concurrency?: number | undefined;
  /** Stops the run: calls in flight are aborted and not counted; the report covers what was measured. */
  signal?: AbortSignal | undefined;
  /** Ends a call that takes longer, as a `timeout` failure (milliseconds). @default none */
  timeoutMs?: number | undefined;
  /** A folder to record each model × profile's traffic to, as cassettes (`RecordingChatModel`). @default none */
  record?: string | undefined;
  /** A folder of cassettes to replay instead of calling the models (`ReplayChatModel`): offline, the same figures every run. @default none */
  replay?: string | undefined;
  /**
   * One request per model × profile before its counted runs (its first case), not counted: a cold
   * start (weights loading, a connection opening) sets no figure. Its latency is the row's `warmUpMs`.
   * @default true
   */
  warmUp?: boolean | undefined;
  /** Called after each counted run, e.g. for a progress bar. */
  onResult?:
    | ((event: { model: EvalModelId; profile: string; result: EvalCaseResult; done: number; total: number }) => void)
    | undefined;
}

interface Job {
  row: number;
  caseIndex: number;
  run: number;
}

/**
 * Runs every case on every model under every profile and reports, per model × profile, how often
 * the model answered right, at what cost, and which profile to use.
 */
export async function evaluate(options: EvaluateOptions): Promise<EvalReport> {
  const cases = loadCases(options.cases);
  const profiles = resolveProfiles(options.profiles);
  const repeat = positiveInteger(options.repeat ?? 1, "repeat");
  const concurrency = positiveInteger(options.concurrency ?? 1, "concurrency");
  if (!Array.isArray(options.models) || options.models.length === 0) {
    throw new TypeError('models is empty: give at least one model ("ollama:qwen3:8b", a factory or a ChatModel).');
  }
  if (options.record !== undefined && options.replay !== undefined) {
    throw new TypeError("record and replay exclude each other: record once, then replay.");
  }
  const cassettes = { record: options.record, replay: options.replay };
  const rows = options.models.flatMap((model) =>
    profiles.map((profile) => {
      const built = buildProfileModel(model, profile, cassettes);
      return { model: built, id: { providerId: built.providerId, modelId: built.modelId }, profile: profile.name };
    }),
  );
  const jobs: Job[] = rows.flatMap((_row, row) =>
    cases.flatMap((_case, caseIndex) =>
      Array.from({ length: repeat }, (_unused, run) => ({ row, caseIndex, run: run + 1 })),
    ),
  );
  const results: EvalCaseResult[][] = rows.map(() => []);
  const { signal } = options;
  const warmUpMs: (number | undefined)[] = rows.map(() => undefined);
  if (options.warmUp ?? true) {
    await runPool(rows.length, concurrency, signal, async (row) => {
      const warm = await runCase(rows[row]!.model, cases[0]!, 0, options);
      warmUpMs[row] = warm?.latencyMs;
    });
  }
  let done = 0;
  await runPool(jobs.length, concurrency, signal, async (index) => {
    const job = jobs[index]!;
    const row = rows[job.row]!;
    const result = await runCase(row.model, cases[job.caseIndex]!, job.run, options);
    if (result === undefined) return false; // stopped mid-call: not measured
    results[job.row]!.push(result);
    done++;
    options.onResult?.({ model: row.id, profile: row.profile, result, done, total: jobs.length });
    return true;
  });
  const order = new Map(cases.map((evalCase, index) => [evalCase.name, index]));
  const reportRows = rows.map((row, index) => {
    const summary = summarizeRow(
      row.id,
      row.profile,
      results[index]!.sort((a, b) => order.get(a.case)! - order.get(b.case)! || a.run - b.run),
    );
    return warmUpMs[index] === undefined ? summary : { ...summary, warmUpMs: warmUpMs[index] };
  });
  return {
    rows: reportRows,
    ...recommendProfiles(reportRows, profiles),
    stopped: done < jobs.length,
    planned: jobs.length,
    measured: done,
    repeat,
    caseMessages: Object.fromEntries(cases.map((evalCase) => [evalCase.name, evalCase.messages])),
  };
}

/** Runs `task(0 … count - 1)` with at most `concurrency` in flight, until done, stopped, or a task returns false. */
async function runPool(
  count: number,
  concurrency: number,
  signal: AbortSignal | undefined,
  task: (index: number) => Promise<boolean | void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count && !signal?.aborted) {
      if ((await task(next++)) === false) return;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

/** One run of a case; undefined when the run was stopped before it ended. */
async function runCase(
  model: ChatModelLike,
  evalCase: EvalCase,
  run: number,
  options: EvaluateOptions,
): Promise<EvalCaseResult | undefined> {
  const input = inputOf(evalCase, options);
  let reAsks = 0;
  const onRepair = (event: { input: ChatModelInput }) => {
    if (event.input === input) reAsks++;
  };
  model.emitter.on("repair", onRepair);
  const started = performance.now();
  let output: ChatModelOutput | undefined;
  let error: unknown;
  try {
    output = await model.create(input);
  } catch (caught) {
    error = caught;
  } finally {
    model.emitter.off("repair", onRepair);
  }
  const latencyMs = round(performance.now() - started, 1);
  if (options.signal?.aborted && output === undefined) return undefined;
  const base = {
    case: evalCase.name,
    run,
    latencyMs,
    ...(evalCase.expect?.noToolCall === true ? { restraint: true } : {}),
  };
  if (output === undefined) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ...base,
      ok: false,
      firstTry: false,
      attempts: reAsks + 1,
      repairs: [],
      usage: { inputTokens: 0, outputTokens: 0 },
      toolCalls: [],
      text: "",
      failure: { case: evalCase.name, run, kind: failureKindOf(error), reason: message },
    };
  }
  const mismatch = checkExpectation(output, evalCase.expect);
  const attempts = Math.max(1, output.meta.attempts.length);
  return {
    ...base,
    ok: mismatch === undefined,
    firstTry: mismatch === undefined && attempts === 1,
    attempts,
    rung: output.meta.toolChoice,
    repairs: output.meta.repairs.map((repair) => repair.kind),
    usage: { inputTokens: output.usage.inputTokens, outputTokens: output.usage.outputTokens },
    toolCalls: output.toolCalls,
    text: output.text,
    ...(mismatch === undefined ? {} : { failure: { case: evalCase.name, run, kind: "expectation", reason: mismatch } }),
  };
}

function inputOf(evalCase: EvalCase, options: EvaluateOptions): ChatModelInput {
  const expected = evalCase.expect?.toolCalls?.length ?? 0;
  const input: ChatModelInput = {
    messages: structuredClone(evalCase.messages),
    // Every profile must ask the provider: a cached answer of another profile would stand in for this one's.
    cache: false,
  };
  if (evalCase.tools.length > 0) {
    input.tools = evalCase.tools.map((tool) => ({
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      inputSchema: tool.parameters,
    }));
    input.toolChoice = evalCase.toolChoice ?? "auto";
    input.parallelToolCalls = evalCase.parallelToolCalls ?? expected > 1;
  }
  if (evalCase.responseFormat !== undefined)
    input.responseFormat = { type: "json-schema", schema: evalCase.responseFormat };
  if (options.signal !== undefined) input.signal = options.signal;
  if (options.timeoutMs !== undefined) input.timeout = options.timeoutMs;
  return input;
}

function loadCases(cases: EvaluateOptions["cases"]): EvalCase[] {
  const list =
    typeof cases === "string"
      ? readCases(cases)
      : Array.isArray(cases)
        ? cases.map((raw, index) => parseCase(raw, `case ${index + 1}`, { name: `case-${index + 1}` }))
        : undefined;
  if (list === undefined || list.length === 0)
    throw new TypeError("cases is empty: give a folder of case files or a list of cases.");
  const names = list.map((evalCase) => evalCase.name);
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated !== undefined) throw new TypeError(`Two cases are named '${repeated}': give each case its own name.`);
  return list;
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new TypeError(`${name} must be a positive integer, got ${value}.`);
  return value;
}
