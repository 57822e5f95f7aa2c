import type { ToolCall } from "../core/messages.js";
import type { RepairKind, ToolChoiceRung } from "../core/output.js";
import type { EvalModelId } from "./eval-model.js";
import type { EvalProfile } from "./eval-profile.js";
import type { FailureKind } from "./failure-kind.js";

/** One failed run of a case: the keelson error kind (or `expectation`) and the message. */
export interface EvalFailure {
  case: string;
  /** Which repeat, from 1. */
  run: number;
  kind: FailureKind;
  reason: string;
}

/** One run of one case on one model under one profile. */
export interface EvalCaseResult {
  case: string;
  run: number;
  ok: boolean;
  /** Succeeded on the first request (no re-ask). */
  firstTry: boolean;
  latencyMs: number;
  /** Requests made: 1 + re-asks (transport retries not counted). */
  attempts: number;
  /** The ladder rung the call ended on; absent when it failed before an answer. */
  rung?: ToolChoiceRung;
  repairs: RepairKind[];
  usage: { inputTokens: number; outputTokens: number };
  toolCalls: ToolCall[];
  text: string;
  /** The case expected restraint (`expect.noToolCall`). */
  restraint?: boolean;
  failure?: EvalFailure;
}

/** The figures of one model under one profile. */
export interface EvalRow {
  model: EvalModelId;
  profile: string;
  /** Case runs measured (each repeat counts once). */
  cases: number;
  successes: number;
  /** 0..1 */
  successRate: number;
  /** 0..1: runs that succeeded on the first request. */
  firstTrySuccessRate: number;
  /** Repairs keelson applied per case run, by kind. */
  repairsPerCase: Partial<Record<RepairKind, number>>;
  /** Requests per case run, on average (1 = never re-asked). */
  attempts: number;
  latencyMs: { p50: number; p95: number; mean: number };
  /** Tokens of every run, summed (the runs that failed with an error report none). */
  usage: { inputTokens: number; outputTokens: number };
  /** How many runs ended on each ladder rung (a profile's calls may land lower: learned refusals, `auto` calls). */
  rungs: Partial<Record<ToolChoiceRung, number>>;
  /** Runs of restraint cases (`expect: { noToolCall: true }`) and how many of them called a tool anyway. */
  restraint: { cases: number; toolCalls: number };
  /** The latency of the row's warm-up request, not counted in any figure (absent with `warmUp: false`). */
  warmUpMs?: number;
  failures: EvalFailure[];
  results: EvalCaseResult[];
}

/** The profile to use for one model: the highest success rate, equal rates going to the higher rung. */
export interface EvalRecommendation {
  model: EvalModelId;
  profile: string;
  /** The constructor options that select the profile. */
  options: EvalProfile["options"];
  successRate: number;
  p95LatencyMs: number;
}

export interface EvalReport {
  rows: EvalRow[];
  /** One per model with a profile that succeeded at least once. */
  recommendations: EvalRecommendation[];
  /** The models none of whose profiles succeeded on any run: nothing is recommended for them. */
  noneWorked: EvalModelId[];
  /** The run was stopped (its `signal`) before every case ran: the figures cover what was measured. */
  stopped: boolean;
  /** Runs planned (models × profiles × cases × repeat) and measured. */
  planned: number;
  measured: number;
  repeat: number;
  /** The cases as they were run, by name (for the failing cases' messages in the HTML report). */
  caseMessages: Record<string, unknown[]>;
}
