import { randomUUID } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RouterStrategy } from "../../src/index.js";
import { startLineWorker, type LineWorker } from "../support/line-worker.js";
import { startLoopbackServer, type LoopbackServer, type RecordedRequest } from "../support/loopback-server.js";
import { openAITextReply, readOwnOpenAIFixture } from "../support/openai-wire.js";
import { missingRedisMessage, redisForTests, type RedisForTests } from "../support/redis-server.js";

const here = dirname(fileURLToPath(import.meta.url));
const redis = await redisForTests();

describe.skipIf(!redis)("createRouter: a fleet sharing its members' health through Redis", () => {
  if (!redis) it.skip(missingRedisMessage, () => {});
  let server: RedisForTests;
  let provider: LoopbackServer;
  /** How the provider answers a member's request (the warm-ups always answer). */
  let answer: (request: RecordedRequest) => Promise<{ status: number; body: string }>;
  const workers: LineWorker[] = [];
  const ok = openAITextReply("OK.").create!;
  const okReply = async () => ({ status: 200, body: ok.body as string });

  beforeAll(async () => {
    server = redis!;
    answer = okReply;
    provider = await startLoopbackServer(async (request, response) => {
      const { status, body } = request.url.includes("/warm/") ? await okReply() : await answer(request);
      response.writeHead(status, { "content-type": "application/json" });
      response.end(body);
    });
  });
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    await provider?.close();
    await server?.stop();
  });

  /** Two processes building the same group (a fresh name: nothing left by an earlier run), both ready. */
  async function twoProcesses(strategy: RouterStrategy): Promise<[LineWorker, LineWorker]> {
    const group = `fleet-${randomUUID()}`;
    const pair = [0, 1].map(() =>
      startLineWorker(
        join(here, "__fixtures__/router-worker.ts"),
        [server.url, provider.url, group, strategy],
        join(here, "../.."),
      ),
    );
    workers.push(...pair);
    expect(await Promise.all(pair.map((worker) => worker.next()))).toEqual(["ready", "ready"]);
    provider.requests.length = 0;
    return pair as [LineWorker, LineWorker];
  }

  const requestsTo = (member: "a" | "b") =>
    provider.requests.filter((request) => request.url.startsWith(`/${member}/`));

  it("should not call, from one process, a member another process saw fail and rested", async () => {
    const [first, second] = await twoProcesses("ordered");
    let failedOnce = false;
    answer = async (request) => {
      if (!request.url.startsWith("/a/") || failedOnce) return okReply();
      failedOnce = true;
      return { status: 500, body: readOwnOpenAIFixture("error-500-server.json") };
    };
    try {
      first.send("go");
      expect(JSON.parse(await first.next())).toEqual({ model: "gpt-b" });
      expect(requestsTo("a")).toHaveLength(1);
      // a answers again by now, but rests for the minute the first process set: the second goes to b.
      second.send("go");
      expect(JSON.parse(await second.next())).toEqual({ model: "gpt-b" });
      first.send("go");
      expect(JSON.parse(await first.next())).toEqual({ model: "gpt-b" });
      expect(requestsTo("a")).toHaveLength(1);
      expect(requestsTo("b")).toHaveLength(3);
    } finally {
      answer = okReply;
    }
  }, 60_000);

  it("should send a call to the member with no call in flight in any process, with least-busy", async () => {
    const [first, second] = await twoProcesses("least-busy");
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    answer = async (request) => {
      if (request.url.startsWith("/a/")) await held;
      return okReply();
    };
    try {
      first.send("bg");
      expect(await first.next()).toBe("started");
      await expect.poll(() => requestsTo("a").length, { timeout: 10_000 }).toBe(1);
      // The first process holds a call on a: the second, which holds none, sends its calls to b.
      second.send("go");
      expect(JSON.parse(await second.next())).toEqual({ model: "gpt-b" });
      second.send("go");
      expect(JSON.parse(await second.next())).toEqual({ model: "gpt-b" });
      release();
      expect(JSON.parse(await first.next())).toEqual({ model: "gpt-a" });
      expect(requestsTo("a")).toHaveLength(1);
    } finally {
      release();
      answer = okReply;
    }
  }, 60_000);
});
