import { describe, expect, it } from "vitest";
import type { Message } from "../../../src/index.js";
import { useLoopbackServer } from "../../support/loopback-server.js";
import { callModes, runCall } from "../../support/run-modes.js";
import { createOllamaModel, readOwnJSON, replyWith } from "./ollama-harness.js";

const ask: Message[] = [{ role: "user", content: "hi" }];

/**
 * The `ollama` SDK sets Content-Type, Accept and User-Agent itself and drops a caller's header of
 * the same name (in any case). The `headers` option promises headers "sent with every request": a
 * proxy that routes or admits clients by User-Agent must see the caller's.
 */
describe("OllamaChatModel headers", () => {
  const server = useLoopbackServer();

  it.each(callModes)("should send a caller's User-Agent instead of the SDK's (%s)", async (mode) => {
    server.handle(replyWith(readOwnJSON("api-chat-nonstream-text.json")));
    const model = createOllamaModel(server.url, { headers: { "User-Agent": "incident-bot/1.0", "x-team": "sre" } });
    const { output } = await runCall(model, { messages: ask }, mode);
    expect(output.text).toBe("Hello! How can I help?");
    expect(server.requests[0]!.headers["user-agent"]).toBe("incident-bot/1.0");
    expect(server.requests[0]!.headers["x-team"]).toBe("sre");
    expect(server.requests[0]!.headers["content-type"]).toBe("application/json");
  });

  it("should send a caller's header of any case on abortable calls too", async () => {
    server.handle(replyWith(readOwnJSON("api-chat-nonstream-text.json")));
    const model = createOllamaModel(server.url, { headers: { "user-agent": "incident-bot/1.0" } });
    await model.create({ messages: ask, signal: new AbortController().signal });
    expect(server.requests[0]!.headers["user-agent"]).toBe("incident-bot/1.0");
  });
});
