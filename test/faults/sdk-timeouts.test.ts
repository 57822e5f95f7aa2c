import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { AzureOpenAIChatModel } from "../../src/adapters/azure-openai/index.js";
import { OpenAIChatModel } from "../../src/adapters/openai/index.js";
import type { ChatModel } from "../../src/index.js";
import type { LoopbackServer } from "../support/loopback-server.js";
import { startLoopbackServer } from "../support/loopback-server.js";
import { neverAnswer } from "./fault-server.js";

let server: LoopbackServer;
beforeAll(async () => {
  server = await startLoopbackServer(neverAnswer);
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  vi.useRealTimers();
});

const minutes = (count: number) => count * 60_000;
const models: [string, () => ChatModel][] = [
  [
    "OpenAIChatModel",
    () =>
      new OpenAIChatModel("gpt-4o-mini", { baseURL: `${server.url}/v1`, apiKey: "sk-probe", retry: { maxRetries: 0 } }),
  ],
  [
    "AzureOpenAIChatModel",
    () =>
      new AzureOpenAIChatModel("gpt-4o", {
        endpoint: server.url,
        apiKey: "sk-probe",
        apiVersion: "2024-12-01-preview",
        retry: { maxRetries: 0 },
      }),
  ],
];

describe.each(models)("%s with a call timeout longer than the openai SDK's 10 minutes", (_name, make) => {
  it.each(["create", "createStream"] as const)(
    "should keep waiting past 10 minutes and end only at the call's own timeout (%s)",
    async (mode) => {
      const model = make();
      // Warm up (SDK loaded, pipeline loaded) with real timers.
      const warm = new AbortController();
      const warming = model
        .create({ messages: [{ role: "user", content: "warm" }], signal: warm.signal })
        .catch(() => undefined);
      while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
      warm.abort();
      await warming;

      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      const before = server.requests.length;
      const input = { messages: [{ role: "user" as const, content: "a slow reasoning model" }], timeout: minutes(20) };
      let outcome: unknown = "pending";
      const call = mode === "create" ? model.create(input) : model.createStream(input).final();
      void call.then(
        () => (outcome = "resolved"),
        (error: unknown) => (outcome = error),
      );
      await vi.waitFor(() => expect(server.requests.length).toBe(before + 1), { interval: 2, timeout: 2000 });
      await vi.advanceTimersByTimeAsync(minutes(10) + 1000);
      await new Promise((resolve) => setImmediate(resolve));
      expect(outcome, "the call ended before its 20-minute timeout").toBe("pending");
      await vi.advanceTimersByTimeAsync(minutes(10));
      await vi.waitFor(() => expect(outcome).not.toBe("pending"), { interval: 2, timeout: 2000 });
      expect(outcome).toMatchObject({ name: "TimeoutError" });
    },
  );
});
