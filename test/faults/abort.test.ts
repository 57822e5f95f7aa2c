import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Handler, LoopbackServer } from "../support/loopback-server.js";
import { startLoopbackServer } from "../support/loopback-server.js";
import { textReplyHandler } from "../support/openai-wire.js";
import { replyWith } from "../adapters/ollama/ollama-harness.js";
import { answerRaw, lastUserContent, neverAnswer, stallAfter } from "./fault-server.js";

const child = fileURLToPath(new URL("./abort-child.ts", import.meta.url));
const root = fileURLToPath(new URL("../..", import.meta.url));

/** The bound: an aborted call settles within 100 ms of abort() (the median of its runs). */
const abortBoundMs = 100;
/** A single run on a loaded machine may be descheduled; still far below the 59 s wait an abort must cut. */
const abortSpikeBoundMs = 1_000;
/** A retry wait the abort must cut: 59 s asked (under the 60 s cap). */
const longWait = { "retry-after": "59" };

const openAIOk: Handler = textReplyHandler("Hello there");
const ollamaOk = replyWith({
  model: "llama3.2",
  created_at: "2025-01-01T00:00:00Z",
  message: { role: "assistant", content: "Hello there" },
  done: true,
  done_reason: "stop",
});

const byPrompt: Record<string, { openai: Handler; ollama: Handler }> = {
  ok: { openai: openAIOk, ollama: ollamaOk },
  hang: { openai: neverAnswer, ollama: neverAnswer },
  retry: {
    openai: answerRaw(429, "application/json", '{"error":{"message":"slow down"}}', longWait),
    ollama: answerRaw(503, "application/json", '{"error":"server busy"}', longWait),
  },
  stall: {
    openai: stallAfter(
      "text/event-stream",
      `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content: "Hel" }, finish_reason: null }] })}\n\n`,
    ),
    ollama: stallAfter(
      "application/x-ndjson",
      `${JSON.stringify({ model: "llama3.2", message: { role: "assistant", content: "Hel" }, done: false })}\n`,
    ),
  },
};

interface ChildReport {
  results: { adapter: string; stage: string; mode: string; ms: number[]; names: string[] }[];
  resources: string[];
}

let server: LoopbackServer;
beforeAll(async () => {
  server = await startLoopbackServer((request, response) => {
    const handlers = byPrompt[lastUserContent(request)]!;
    return (request.url.startsWith("/api/") ? handlers.ollama : handlers.openai)(request, response);
  });
});
afterAll(async () => {
  await server.close();
});

/** Runs abort-child.ts; resolves with its report and how long it lived on after printing it. */
function runChild(): Promise<{ report: ChildReport; exitCode: number | null; lingeredMs: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const process = spawn(globalThis.process.execPath, ["--import", "tsx", child, server.url], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let printedAt = 0;
    process.stdout.on("data", (data: Buffer) => {
      stdout += data.toString();
      if (stdout.includes("\n") && printedAt === 0) printedAt = Date.now();
    });
    process.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
    const killer = setTimeout(() => process.kill("SIGKILL"), 15_000);
    process.on("error", reject);
    process.on("exit", (exitCode) => {
      clearTimeout(killer);
      try {
        resolve({
          report: JSON.parse(stdout.split("\n")[0]!) as ChildReport,
          exitCode,
          lingeredMs: Date.now() - printedAt,
          stderr,
        });
      } catch {
        reject(new Error(`the child printed no report (exit ${exitCode}): ${stderr}`));
      }
    });
  });
}

describe("ChatModel aborts through the real SDKs", () => {
  it(`should settle every aborted call within ${abortBoundMs} ms with AbortError, at every stage, and leave nothing that keeps the process alive`, async () => {
    const { report, exitCode, lingeredMs, stderr } = await runChild();
    expect(exitCode, stderr).toBe(0);
    const table = report.results.map(
      (row) =>
        `${row.adapter.padEnd(7)} ${row.mode.padEnd(13)} ${row.stage.padEnd(20)} max ${Math.max(...row.ms)
          .toFixed(1)
          .padStart(5)} ms  [${row.ms.join(", ")}]`,
    );
    console.info(
      `abort latency (ms from abort() to rejection, ${report.results[0]!.ms.length} runs each):\n${table.join("\n")}\nexited ${lingeredMs} ms after its report; active resources then: ${JSON.stringify(report.resources)}`,
    );
    expect(report.results).toHaveLength(14);
    for (const row of report.results) {
      expect(row.names, `${row.adapter} ${row.mode} ${row.stage}`).toEqual(["AbortError"]);
      const sorted = [...row.ms].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)]!;
      expect(median, `${row.adapter} ${row.mode} ${row.stage} median`).toBeLessThan(abortBoundMs);
      expect(sorted.at(-1)!, `${row.adapter} ${row.mode} ${row.stage} slowest`).toBeLessThan(abortSpikeBoundMs);
    }
    // A retry wait of 59 s or an open socket would hold the child for seconds; it ends by itself.
    expect(report.resources.filter((resource) => resource !== "PipeWrap" && resource !== "TTYWrap")).toEqual([]);
    expect(lingeredMs).toBeLessThan(3_000);
  });
});
