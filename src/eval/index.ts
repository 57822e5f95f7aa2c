/**
 * Which model, and which rung, can a tool-calling agent rely on? `evaluate` runs cases on models
 * under capability profiles and reports per model × profile; the `keelson eval` command runs it.
 * @module keelson/eval
 */
export { evaluate, type EvaluateOptions } from "./evaluate.js";
export type { EvalCase, EvalExpectation, EvalTool, ExpectedToolCall } from "./eval-case.js";
export { readCases } from "./read-cases.js";
export { starterCases, writeStarterCases } from "./starter-cases.js";
export { parseCase } from "./parse-case.js";
export { builtinProfiles, resolveProfiles, type EvalProfile, type BuiltinProfileName } from "./eval-profile.js";
export { cassettePath, type EvalModel, type EvalModelFactory, type EvalModelId } from "./eval-model.js";
export type { EvalReport, EvalRow, EvalCaseResult, EvalFailure, EvalRecommendation } from "./eval-report.js";
export type { FailureKind } from "./failure-kind.js";
export { checkExpectation } from "./check-expectation.js";
export { toJSONReport, type SeedCaseEntry } from "./json-report.js";
export { formatTable } from "./format-table.js";
export { renderHTMLReport } from "./html-report.js";
export { runKeelsonCommand, type KeelsonCommandIO } from "./keelson-command.js";
