// Where a call's time goes on the loopback: `node bench/segments-worker.mjs <raw|keelson> <openai|ollama|anthropic>`.
// Times the native call case as worker.mjs does, and splits every call at four points both sides
// pass through: the SDK's method entered (openai's chat.completions.create, ollama's chat, anthropic's messages.create), its
// fetch called, the response's headers in, and the SDK's promise settled. The SDK and fetch are
// wrapped the same way for both sides (before any client exists: clients keep the fetch they find),
// so the wrapping costs both alike; the SDK in both its builds, as the raw side imports it and
// keelson requires it. Prints each segment's median (µs) over the timed calls:
// {"beforeSDK", "sdkToRequest", "wire", "sdkFromResponse", "afterSDK", "total"}.
import { createRequire } from "node:module";
import process from "node:process";
import { performance } from "node:perf_hooks";
import OpenAI from "openai";
import { Ollama } from "ollama";
import Anthropic from "@anthropic-ai/sdk";

const require = createRequire(import.meta.url);

const [side, provider] = process.argv.slice(2);
const iterations = Number(process.env.BENCH_ITERATIONS ?? 200);
const warmup = Number(process.env.BENCH_WARMUP ?? 50);

const stamps = { sdk: 0, request: 0, response: 0, settled: 0 };

const networkFetch = globalThis.fetch;
globalThis.fetch = (url, init) => {
  stamps.request = performance.now();
  return networkFetch(url, init).then((response) => {
    stamps.response = performance.now();
    return response;
  });
};

/** Wraps the SDK method on its prototype: the same promise goes back, a side reaction notes when it settles. */
function stampMethod(prototype, name) {
  if (Object.hasOwn(prototype[name], "stamped")) return;
  const method = prototype[name];
  prototype[name] = function (...args) {
    stamps.sdk = performance.now();
    const settles = method.apply(this, args);
    const settled = () => void (stamps.settled = performance.now());
    settles.then(settled, settled);
    return settles;
  };
  prototype[name].stamped = true;
}

if (provider === "openai") {
  for (const SDK of [OpenAI, require("openai")])
    stampMethod(Object.getPrototypeOf(new SDK({ apiKey: "segments" }).chat.completions), "create");
} else if (provider === "ollama") {
  for (const SDK of [Ollama, require("ollama").Ollama])
    stampMethod(Object.getPrototypeOf(Object.getPrototypeOf(new SDK())), "chat");
} else if (provider === "anthropic") {
  for (const SDK of [Anthropic, require("@anthropic-ai/sdk").Anthropic])
    stampMethod(Object.getPrototypeOf(new SDK({ apiKey: "segments" }).messages), "create");
} else throw new Error(`unknown provider ${JSON.stringify(provider)}: openai, ollama or anthropic`);

const { setup } = await import(`./work/${side}-${provider}.mjs`);
const call = setup({ baseURL: `http://127.0.0.1:${process.env.BENCH_PORT}`, forced: false }).call;

for (let i = 0; i < warmup; i++) await call();
const segments = { beforeSDK: [], sdkToRequest: [], wire: [], sdkFromResponse: [], afterSDK: [], total: [] };
for (let i = 0; i < iterations; i++) {
  const start = performance.now();
  await call();
  const end = performance.now();
  segments.beforeSDK.push(stamps.sdk - start);
  segments.sdkToRequest.push(stamps.request - stamps.sdk);
  segments.wire.push(stamps.response - stamps.request);
  segments.sdkFromResponse.push(stamps.settled - stamps.response);
  segments.afterSDK.push(end - stamps.settled);
  segments.total.push(end - start);
}

const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];
const result = Object.fromEntries(Object.entries(segments).map(([name, values]) => [name, median(values) * 1000]));
process.stdout.write(`${JSON.stringify(result)}\n`);
