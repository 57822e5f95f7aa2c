#!/usr/bin/env bash
# Runs every example, as CI does (`npm run examples`). None reaches the network: each runs on the
# scripted model or replays a cassette in examples/cassettes/. Any failed expectation exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."

run() {
  echo
  echo "━━━ $*"
  "$@"
}

run npx tsx examples/quickstart.ts
run npx tsx examples/structured-output.ts
run npx tsx examples/four-providers.ts
run npx tsx examples/ollama-forced-tool-call.ts
run npx tsx examples/mcp-tools.ts
run npx tsx examples/run-budget.ts
run npx tsx examples/local-model-agent.ts
run npx tsx examples/approval.ts
run npx vitest run --config examples/vitest.config.ts

# The cassettes must be what the real adapters record against the loopback fakes today: record
# them again into a scratch folder and compare (an adapter change that alters them shows up here).
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
KEELSON_CASSETTE_DIR="$scratch" run npx tsx examples/record-cassettes.ts
if ! diff -r "$scratch" examples/cassettes --exclude README.md; then
  echo "examples/cassettes/ differ from a fresh recording: run 'npx tsx examples/record-cassettes.ts' and commit the result." >&2
  exit 1
fi
# The starter eval suite (examples/eval/), replayed offline from its cassettes: both case formats,
# then the cassettes recorded again against the fake Ollama and compared, as above.
run npx tsx examples/eval/keelson.ts eval --model ollama:qwen3:8b --cases examples/eval/cases \
  --replay examples/eval/cassettes/cases --min-success-rate 0.9
run npx tsx examples/eval/keelson.ts eval --model ollama:qwen3:8b --cases examples/eval/seed \
  --replay examples/eval/cassettes/seed
eval_scratch=$(mktemp -d)
trap 'rm -rf "$scratch" "$eval_scratch"' EXIT
KEELSON_CASSETTE_DIR="$eval_scratch" run npx tsx examples/eval/record-cassettes.ts
if ! diff -r "$eval_scratch" examples/eval/cassettes; then
  echo "examples/eval/cassettes/ differ from a fresh recording: run 'npx tsx examples/eval/record-cassettes.ts' and commit the result." >&2
  exit 1
fi
echo
echo "all examples ran"
