// Its own file: vitest runs it in a fresh process, where Node's fetch has not run yet.
import { expect, it } from "vitest";
import { leanFetch } from "../../src/internal/lean-fetch.js";
import { sendJSON, useLoopbackServer } from "../support/loopback-server.js";

const server = useLoopbackServer();

it("should send a process's first request through lean fetch too (no global dispatcher set yet is the default)", async () => {
  server.handle((_request, response) => sendJSON(response, 200, { ok: true }));
  expect((globalThis as Record<symbol, unknown>)[Symbol.for("undici.globalDispatcher.1")]).toBeUndefined();
  const first = await leanFetch(`${server.url}/first`, { method: "POST", body: "{}" });
  await first.text();
  // Node's fetch adds sec-fetch-mode and accept-encoding; lean fetch sends neither.
  expect(server.requests[0]!.headers["sec-fetch-mode"]).toBeUndefined();
  expect(first.type).toBe("default");
});
