import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runKeelsonCommand } from "../../src/eval/index.js";

const suite = "examples/eval/cases";
const cassettes = "examples/eval/cassettes/cases";
const config = "test/eval/__fixtures__/eval.config.mjs";

/** A stream that keeps what is written (and can react to it). */
function capture(onWrite?: (text: string) => void) {
  let text = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      onWrite?.(String(chunk));
      done();
    },
  });
  return { stream, text: () => text };
}

async function run(argv: string[], options: { signal?: AbortSignal; onStderr?: (text: string) => void } = {}) {
  const stdout = capture();
  const stderr = capture(options.onStderr);
  const code = await runKeelsonCommand(argv, {
    stdout: stdout.stream,
    stderr: stderr.stream,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** The JSON report without what a replay does not fix: latencies (the warm-up's too), and the call ids keelson makes up. */
function figures(path: string): unknown {
  return JSON.parse(readFileSync(path, "utf8"), (key, value: unknown) =>
    key === "id" ||
    key === "latencyMs" ||
    key === "warmUpMs" ||
    key === "latency_ms" ||
    key === "avg_latency_ms" ||
    key === "p95LatencyMs"
      ? "…"
      : value,
  );
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "keelson-eval-cli-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("keelson eval", () => {
  it("--help should list every option", async () => {
    const { code, stdout } = await run(["eval", "--help"]);
    expect(code).toBe(0);
    for (const option of [
      "--model",
      "--cases",
      "--profiles",
      "--repeat",
      "--concurrency",
      "--json",
      "--html",
      "--record",
      "--replay",
      "--config",
      "--min-success-rate",
      "--timeout",
      "--help",
    ]) {
      expect(stdout).toMatch(new RegExp(`^\\s+(-\\w, )?${option}\\b`, "m"));
    }
  });

  it("should replay the starter suite: the table, the JSON with the seed's fields, the HTML, the same figures every run", async () => {
    const argv = ["eval", "--model", "ollama:qwen3:8b", "--cases", suite, "--replay", cassettes];
    const first = await run([...argv, "--json", join(dir, "a.json"), "--html", join(dir, "report.html")]);
    expect(first.code).toBe(0);
    const lines = first.stdout.split("\n");
    expect(lines[0]).toMatch(/^model\s+profile\s+cases\s+success\s+first try\s+attempts\s+p50 ms\s+p95 ms/);
    expect(lines.find((line) => line.includes(" native "))).toMatch(
      /ollama:qwen3:8b\s+native\s+12\s+12 \(100\.0%\)\s+91\.7%\s+1\.08/,
    );
    expect(lines.find((line) => line.includes(" response-format "))).toMatch(/12\s+12 \(100\.0%\)\s+100\.0%\s+1\.00/);
    expect(lines.find((line) => line.includes(" prompt "))).toMatch(/12\s+11 \(91\.7%\)\s+91\.7%\s+1\.00/);
    expect(first.stdout).toContain(
      'prompt 04-choose-docs#1 expectation: expected a call of search_docs; got get_time({"timezone":"UTC"})',
    );
    // native and response-format tie at 100%: the higher rung wins, whatever the latencies.
    expect(first.stdout).toContain("ollama:qwen3:8b → native (100.0%");
    // Not a terminal: one plain line per run.
    expect(first.stderr.split("\n").filter((line) => /^\[\d+\/36\] ollama:qwen3:8b /.test(line))).toHaveLength(36);

    const json = JSON.parse(readFileSync(join(dir, "a.json"), "utf8"));
    expect(json).toMatchObject({ total_cases: 36, success: 35, error: 1, success_rate: "35/36 (97.2%)" });
    expect(json.avg_latency_ms).toEqual(expect.any(Number));
    expect(json.cases).toHaveLength(36);
    expect(json.cases).toContainEqual(
      expect.objectContaining({
        case: "04-choose-docs",
        profile: "prompt",
        status: "error",
        tool_calls: 1,
        content_length: 0,
      }),
    );
    expect(json.cases).toContainEqual(
      expect.objectContaining({ case: "07-no-tool-greeting", status: "success", tool_calls: 0, content_length: 32 }),
    );
    expect(json.rows.map((row: { successes: number }) => row.successes)).toEqual([12, 12, 11]);
    expect(json.rows[0].repairsPerCase).toEqual({ "missing-id": 0.75 });
    expect(json.rows[2].repairsPerCase).toEqual({
      "missing-id": 0.75,
      "stripped-wrapper": 0.5,
      "json-repaired": 0.083,
    });
    expect(json.recommendations).toEqual([
      expect.objectContaining({
        profile: "native",
        options: { toolChoiceSupport: ["auto", "none", "required", "single"] },
      }),
    ]);
    expect(json.noneWorked).toEqual([]);
    expect(json.rows.map((row: { warmUpMs: unknown }) => typeof row.warmUpMs)).toEqual(["number", "number", "number"]);
    const html = readFileSync(join(dir, "report.html"), "utf8");
    expect(html.match(/<figure data-chart="[a-z-]+"><figcaption>[^<]+<\/figcaption><svg /g)).toHaveLength(3);
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);

    const second = await run([...argv, "--json", join(dir, "b.json"), "--concurrency", "3"]);
    expect(second.code).toBe(0);
    expect(figures(join(dir, "b.json"))).toEqual(figures(join(dir, "a.json")));
  });

  it("should exit 1 when a model × profile falls under --min-success-rate, and 0 when none does", async () => {
    const argv = ["eval", "-m", "ollama:qwen3:8b", "-c", suite, "--replay", cassettes];
    const under = await run([...argv, "--min-success-rate", "0.95"]);
    expect(under.code).toBe(1);
    expect(under.stderr).toContain("under --min-success-rate 0.95: ollama:qwen3:8b prompt (0.917)");
    expect((await run([...argv, "--min-success-rate", "0.9"])).code).toBe(0);
    expect((await run([...argv, "--profiles", "native,response-format", "--min-success-rate", "1"])).code).toBe(0);
  });

  it("should exit 2 with what to fix on bad arguments", async () => {
    const missing = await run(["eval", "--cases", suite]);
    expect(missing).toMatchObject({ code: 2, stderr: expect.stringContaining("no model: give --model") });
    const badRate = await run(["eval", "-m", "ollama:x", "-c", suite, "--min-success-rate", "90"]);
    expect(badRate.stderr).toContain("--min-success-rate must be between 0 and 1, got 90");
    const unknown = await run(["eval", "--modle", "ollama:x"]);
    expect(unknown).toMatchObject({ code: 2, stderr: expect.stringMatching(/--modle/) });
    const noCassette = await run(["eval", "-m", "ollama:other", "-c", suite, "--replay", cassettes]);
    expect(noCassette).toMatchObject({ code: 2, stderr: expect.stringContaining("ollama-other.native.json") });
    expect((await run(["deploy"])).code).toBe(2);
  });

  it("should take models and custom profiles from --config, record them, and replay the recording to the same figures", async () => {
    const recordArgs = ["eval", "--config", config, "--cases", suite, "--profiles", "strict-native,prompt"];
    const recorded = await run([...recordArgs, "--record", join(dir, "tapes"), "--json", join(dir, "live.json")]);
    expect(recorded.code).toBe(0);
    expect(readdirSync(join(dir, "tapes")).sort()).toEqual([
      "scripted-weather-bot.prompt.json",
      "scripted-weather-bot.strict-native.json",
    ]);
    const live = JSON.parse(readFileSync(join(dir, "live.json"), "utf8"));
    expect(live.rows.map((row: { profile: string; successes: number }) => [row.profile, row.successes])).toEqual([
      ["strict-native", 2], // 01 (get_weather Oslo), 07 (hello)
      ["prompt", 2],
    ]);
    // A custom profile's name is only known from the config.
    const withoutConfig = await run([
      "eval",
      "-m",
      "scripted:weather-bot",
      "-c",
      suite,
      "-p",
      "strict-native",
      "--replay",
      join(dir, "tapes"),
    ]);
    expect(withoutConfig).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("Unknown profile 'strict-native'"),
    });
    // Replayed, the rows are the recording's; the recommendation (whose ties a replay breaks without latency) the same on every replay.
    const replay = (name: string) => run([...recordArgs, "--replay", join(dir, "tapes"), "--json", join(dir, name)]);
    expect((await replay("replay-1.json")).code).toBe(0);
    expect((await replay("replay-2.json")).code).toBe(0);
    const [one, two] = [figures(join(dir, "replay-1.json")), figures(join(dir, "replay-2.json"))] as {
      rows: unknown;
    }[];
    expect(one!.rows).toEqual((figures(join(dir, "live.json")) as { rows: unknown }).rows);
    expect(two).toEqual(one);
  });

  it("should stop on Ctrl-C (its signal) and still print and write the partial report, exiting 130", async () => {
    process.env.KEELSON_TEST_DELAY_MS = "30";
    try {
      const controller = new AbortController();
      const result = await run(
        [
          "eval",
          "--config",
          config,
          "--cases",
          suite,
          "--profiles",
          "native",
          "--json",
          join(dir, "partial.json"),
          "--html",
          join(dir, "partial.html"),
        ],
        { signal: controller.signal, onStderr: (text) => text.startsWith("[2/") && controller.abort() },
      );
      expect(result.code).toBe(130);
      expect(result.stdout).toContain("stopped: 2 of 12 runs measured");
      const json = JSON.parse(readFileSync(join(dir, "partial.json"), "utf8"));
      expect(json).toMatchObject({ stopped: true, measured: 2, planned: 12, total_cases: 2 });
      expect(existsSync(join(dir, "partial.html"))).toBe(true);
    } finally {
      delete process.env.KEELSON_TEST_DELAY_MS;
    }
  });
});

describe("keelson eval on a terminal", () => {
  it("should draw a progress bar instead of one line per run", async () => {
    const written: string[] = [];
    const tty = Object.assign(
      new Writable({
        write(chunk, _encoding, done) {
          written.push(String(chunk));
          done();
        },
      }),
      { isTTY: true, columns: 120, cursorTo: () => true, clearLine: () => true, moveCursor: () => true },
    );
    const stdout = capture();
    const code = await runKeelsonCommand(
      ["eval", "-m", "ollama:qwen3:8b", "-c", suite, "--replay", cassettes, "-p", "native"],
      { stdout: stdout.stream, stderr: tty },
    );
    expect(code).toBe(0);
    const text = written.join("");
    expect(text).toMatch(/12\/12 runs \| ollama:qwen3:8b native 12-structured-answer/);
    expect(text).not.toMatch(/^\[\d+\/12\]/m);
  });
});

describe("keelson eval as a process", () => {
  it("should stop on SIGINT, print and write the partial report, and exit 130", async () => {
    const { spawn } = await import("node:child_process");
    const json = join(dir, "interrupted.json");
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "examples/eval/keelson.ts",
        "eval",
        "--config",
        config,
        "--cases",
        suite,
        "-p",
        "native",
        "--json",
        json,
      ],
      { env: { ...process.env, KEELSON_TEST_DELAY_MS: "150" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    child.stdout.on("data", (chunk) => (stdout += String(chunk)));
    child.stderr.on("data", (chunk) => {
      if (String(chunk).includes("[1/12]")) child.kill("SIGINT");
    });
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      child.on("close", (exit) => {
        clearTimeout(timer);
        resolve(exit);
      });
    });
    expect(code).toBe(130);
    expect(stdout).toMatch(/stopped: \d+ of 12 runs measured/);
    const report = JSON.parse(readFileSync(json, "utf8"));
    expect(report.stopped).toBe(true);
    expect(report.measured).toBeGreaterThanOrEqual(1);
    expect(report.measured).toBeLessThan(12);
  }, 40_000);
});
