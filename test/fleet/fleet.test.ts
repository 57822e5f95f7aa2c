import { randomUUID } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoopbackServer, RecordedRequest } from "../support/loopback-server.js";
import { startLoopbackServer } from "../support/loopback-server.js";
import { startLineWorker, type LineWorker } from "../support/line-worker.js";
import { openAITextReply, readOwnOpenAIFixture } from "../support/openai-wire.js";
import { missingRedisMessage, redisForTests, type RedisForTests } from "../support/redis-server.js";

const here = dirname(fileURLToPath(import.meta.url));
const redis = await redisForTests();

/** One worker process of the fleet, sharing the limit in Redis. */
function startWorker(
  redisUrl: string,
  baseURL: string,
  modelId: string,
  requestsPerMinute: number,
  timeoutMs: number,
): LineWorker {
  return startLineWorker(
    join(here, "__fixtures__/fleet-worker.ts"),
    [redisUrl, baseURL, modelId, String(requestsPerMinute), String(timeoutMs)],
    join(here, "../.."),
  );
}

const results = (line: string) =>
  (JSON.parse(line) as { results: { text?: string; status?: number; name?: string }[] }).results;

describe.skipIf(!redis)("a fleet sharing one rate limit through Redis", () => {
  if (!redis) it.skip(missingRedisMessage, () => {});
  let server: RedisForTests;
  let provider: LoopbackServer;
  /** When each rate-limited request reached the provider (the workers' warm-ups left out). */
  let arrivals: { at: number; url: string }[] = [];
  let answer: (request: RecordedRequest) => { status: number; headers: Record<string, string>; body: string };
  const workers: LineWorker[] = [];

  beforeAll(async () => {
    server = redis!;
    const ok = openAITextReply("OK.").create!;
    answer = () => ({ status: 200, headers: ok.headers as Record<string, string>, body: ok.body as string });
    provider = await startLoopbackServer((request, response) => {
      if (!request.url.includes("/warm/")) arrivals.push({ at: performance.now(), url: request.url });
      const { status, headers, body } = request.url.includes("/warm/")
        ? { status: 200, headers: ok.headers as Record<string, string>, body: ok.body as string }
        : answer(request);
      response.writeHead(status, headers);
      response.end(body);
    });
  });
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    await provider?.close();
    await server?.stop();
  });

  /** Two workers on one model (a fresh id: no key left by an earlier run), both ready. */
  async function twoWorkers(requestsPerMinute: number, timeoutMs: number): Promise<[LineWorker, LineWorker]> {
    arrivals = [];
    const modelId = `gpt-fleet-${randomUUID()}`;
    const pair = [0, 1].map(() => startWorker(server.url, `${provider.url}/v1`, modelId, requestsPerMinute, timeoutMs));
    workers.push(...pair);
    expect(await Promise.all(pair.map((worker) => worker.next()))).toEqual(["ready", "ready"]);
    return pair as [LineWorker, LineWorker];
  }

  it("should let the provider see no more requests than the one budget allows, whichever process sends them", async () => {
    const [first, second] = await twoWorkers(2, 1_500); // 2 a minute for the whole fleet
    first.send("go 3");
    second.send("go 3");
    const [a, b] = await Promise.all([first.next(), second.next()]);
    const outcomes = [...results(a), ...results(b)].map((result) => result.text ?? result.name).sort();
    // Each process alone would have sent 2: together they sent 2, and the rest waited past their timeout.
    expect(outcomes).toEqual(["OK.", "OK.", "TimeoutError", "TimeoutError", "TimeoutError", "TimeoutError"]);
    expect(arrivals).toHaveLength(2);
  }, 30_000);

  it("should pause every process for a 429's Retry-After seen by one", async () => {
    const [first, second] = await twoWorkers(6000, 10_000);
    let limited = false;
    const ok = answer;
    answer = (request) => {
      if (limited) return ok(request);
      limited = true;
      return {
        status: 429,
        headers: { "content-type": "application/json", "retry-after": "1" },
        body: readOwnOpenAIFixture("error-429-rate-limit.json"),
      };
    };
    try {
      first.send("go 1");
      expect(results(await first.next())).toEqual([{ status: 429, error: expect.stringContaining("Rate limit") }]);
      const pausedAt = performance.now();
      first.send("go 1");
      second.send("go 2");
      const [a, b] = await Promise.all([first.next(), second.next()]);
      expect([...results(a), ...results(b)]).toEqual([{ text: "OK." }, { text: "OK." }, { text: "OK." }]);
      expect(arrivals).toHaveLength(4);
      // Neither process sent anything until the second the provider asked for had passed.
      for (const arrival of arrivals.slice(1)) expect(arrival.at - arrivals[0]!.at).toBeGreaterThanOrEqual(900);
      expect(performance.now() - pausedAt).toBeLessThan(5_000);
    } finally {
      answer = ok;
    }
  }, 30_000);
});
