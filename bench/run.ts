import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { readConfig, selectedCallCases, type Provider } from "./config.js";
import { startFakeServer } from "./fake-server-process.js";
import type {
  CallSample,
  ImportMode,
  ImportSample,
  Kind,
  OverheadSample,
  Path,
  RunToolsSample,
  SegmentsSample,
  Side,
} from "./measure.js";
import {
  measureCalls,
  measureImport,
  measureOverhead,
  measureRunTools,
  measureSegments,
  workerWarnings,
} from "./measure.js";
import { markdownReport, summaryLine, type BenchResults } from "./report.js";
import { checkTargets, collect, medianSample, type CallCase, type ImportCase } from "./summarize.js";

// `npm run bench`: keelson against the raw openai, ollama and @anthropic-ai/sdk SDKs on a loopback fake server, every
// case in fresh plain-node processes importing the built dist/, raw and keelson interleaved.
// A benchmark, not a test: it reports the numbers and never fails on them.

const config = readConfig();
const casePattern = new RegExp(config.cases);
const importModes: ImportMode[] = ["import", "construct"];
const sidesFor = (round: number): Side[] => (round % 2 === 0 ? ["raw", "keelson"] : ["keelson", "raw"]);
const log = (message: string) => process.stderr.write(`${message}\n`);

const server = await startFakeServer();
const callSamples = new Map<string, Record<Side, CallSample[]>>();
const importSamples = new Map<string, Record<Side, ImportSample[]>>();
const overheadSamples: OverheadSample[] = [];
const runToolsSamples: RunToolsSample[] = [];
const segmentSamples = new Map<Provider, Record<Side, SegmentsSample[]>>();
try {
  for (let round = 0; round < config.rounds; round++) {
    log(`round ${round + 1}/${config.rounds}`);
    for (const { provider, kind, path } of selectedCallCases(config)) {
      const key = `${provider}|${kind}|${path}`;
      const samples = callSamples.get(key) ?? { raw: [], keelson: [] };
      callSamples.set(key, samples);
      for (const side of sidesFor(round))
        samples[side].push(await measureCalls(side, provider, kind, path, server.port, config));
    }
  }
  log(`cold imports (${config.importRounds} processes each)`);
  for (let round = 0; round < config.importRounds; round++) {
    for (const provider of config.providers) {
      for (const mode of importModes) {
        const key = `${provider}|${mode}`;
        if (!casePattern.test(`${provider} import ${mode}`)) continue;
        const samples = importSamples.get(key) ?? { raw: [], keelson: [] };
        importSamples.set(key, samples);
        for (const side of sidesFor(round)) samples[side].push(await measureImport(side, provider, mode));
      }
    }
  }
  if (casePattern.test("overhead")) {
    log(`keelson's own time on a canned adapter (${config.rounds} processes)`);
    for (let round = 0; round < config.rounds; round++) overheadSamples.push(await measureOverhead(config));
  }
  if (casePattern.test("run-tools")) {
    log(`runTools' own cost per step on a canned adapter (${config.rounds} processes)`);
    for (let round = 0; round < config.rounds; round++) runToolsSamples.push(await measureRunTools(config));
  }
  if (casePattern.test("segments")) {
    log(`where a native call's time goes, per side (${config.rounds} rounds)`);
    for (let round = 0; round < config.rounds; round++) {
      for (const provider of config.providers) {
        const samples = segmentSamples.get(provider) ?? { raw: [], keelson: [] };
        segmentSamples.set(provider, samples);
        for (const side of sidesFor(round))
          samples[side].push(await measureSegments(side, provider, server.port, config));
      }
    }
  }
} finally {
  server.stop();
}

const calls: CallCase[] = [...callSamples].map(([key, samples]) => {
  const [provider, kind, path] = key.split("|") as [CallCase["provider"], Kind, Path];
  return { provider, kind, path, ...collect(samples), keelsonRoundP50s: samples.keelson.map((sample) => sample.p50Ms) };
});
const imports: ImportCase[] = [...importSamples].map(([key, samples]) => {
  const [provider, mode] = key.split("|") as [ImportCase["provider"], ImportMode];
  return { provider, mode, ...collect(samples) };
});
const results: BenchResults = {
  date: new Date().toISOString(),
  node: process.versions.node,
  cpus: availableParallelism(),
  config,
  calls,
  imports,
  overhead: overheadSamples.length > 0 ? medianSample(overheadSamples) : undefined,
  runTools: runToolsSamples.length > 0 ? medianSample(runToolsSamples) : undefined,
  segments: [...segmentSamples].map(([provider, samples]) => ({
    provider,
    raw: medianSample(samples.raw),
    keelson: medianSample(samples.keelson),
  })),
  targets: checkTargets(calls, imports, config.providers),
  warnings: [...workerWarnings],
};

const resultsDir = fileURLToPath(new URL("./results/", import.meta.url));
mkdirSync(resultsDir, { recursive: true });
const file = `${resultsDir}bench-${results.date.replace(/[:.]/g, "-")}.json`;
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(`${resultsDir}latest.json`, `${JSON.stringify(results, null, 2)}\n`);

process.stdout.write(`${markdownReport(results)}\n\n`);
process.stdout.write(`${JSON.stringify(results)}\n\n`);
process.stdout.write(`Results written to ${file}\n`);
process.stdout.write(`${summaryLine(results)}\n`);
