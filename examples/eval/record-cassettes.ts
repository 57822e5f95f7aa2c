/**
 * Records the starter suite's cassettes (examples/eval/cassettes/) by running `evaluate` with
 * `record` on the REAL OllamaChatModel, through the ollama SDK, against a LOOPBACK FAKE of
 * Ollama's /api/chat (support/fake-ollama.ts): every request and conversion is real, the answers
 * are written by us. Then `keelson eval --replay` plays them back offline.
 *
 *   npx tsx examples/eval/record-cassettes.ts                          # rewrite examples/eval/cassettes/
 *   KEELSON_CASSETTE_DIR=/tmp/c npx tsx examples/eval/record-cassettes.ts   # write elsewhere
 *
 * Against a real Ollama instead: npx keelson eval --model ollama:qwen3:8b --cases examples/eval/cases --record <dir>
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { evaluate } from "keelson/eval";
import { OllamaChatModel } from "keelson/ollama";
import { startFakeOllama } from "./support/fake-ollama.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const outDir = process.env.KEELSON_CASSETTE_DIR ?? join(here, "cassettes");

const fake = await startFakeOllama();
try {
  const model = (options: object) => new OllamaChatModel("qwen3:8b", { host: fake.url, ...options });
  for (const suite of ["cases", "seed"]) {
    rmSync(join(outDir, suite), { recursive: true, force: true });
    const report = await evaluate({ cases: join(here, suite), models: [model], record: join(outDir, suite) });
    const line = report.rows.map((row) => `${row.profile} ${row.successes}/${row.cases}`).join(", ");
    process.stdout.write(`recorded ${suite}: ${line}\n`);
  }
} finally {
  await fake.close();
}
