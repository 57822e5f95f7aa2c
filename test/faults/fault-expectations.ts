import { expect } from "vitest";
import type { ChatModel, ChatModelChunk, ChatModelInput } from "../../src/index.js";
import { ProviderError } from "../../src/index.js";
import type { Handler, LoopbackServer } from "../support/loopback-server.js";
import { settleCall, type CallMode } from "../support/run-modes.js";
import { perPrompt, stallAfter } from "./fault-server.js";

/**
 * What every adapter must do under the same transport faults, whatever its wire format: the
 * provider's fault tests give the handlers, these check the outcome. Every reply that succeeds is
 * the provider's "Hello there".
 */
export interface FaultSubject {
  server: LoopbackServer;
  model(): ChatModel;
  input(extra?: Partial<ChatModelInput>): ChatModelInput;
  /** The normal reply, for the request after a fault. */
  ok: Handler;
}

export function textOf(chunks: ChatModelChunk[]): string {
  return chunks.map((next) => (next.type === "text-delta" ? next.text : "")).join("");
}

/** The first request meets the fault, the retry gets the answer. */
export async function expectRetriedThenAnswered(
  subject: FaultSubject,
  fault: Handler,
  mode: CallMode,
): Promise<ChatModelChunk[]> {
  perPrompt(subject.server, fault, subject.ok);
  const { output, chunks } = await settleCall(subject.model(), subject.input(), mode);
  expect(output?.text).toBe("Hello there");
  expect(subject.server.requests).toHaveLength(2);
  return chunks;
}

/** A stream that breaks after `text` arrived: a ProviderError carrying what arrived, and no silent retry. */
export async function expectPartialOutputError(
  subject: FaultSubject,
  fault: Handler,
  reason: string,
  text: string,
): Promise<void> {
  subject.server.handle(fault);
  const { error, output, chunks } = await settleCall(subject.model(), subject.input(), "createStream");
  expect(output).toBeUndefined();
  expect(textOf(chunks)).toBe(text);
  expect(ProviderError.isInstance(error)).toBe(true);
  expect(error).toMatchObject({ reason, partialOutput: expect.objectContaining({ text }) });
  expect(subject.server.requests).toHaveLength(1);
}

/** A stream aborted after its first text (`head`, reading as `text`): AbortError, never the partial text as the answer. */
export async function expectAbortMidStream(
  subject: FaultSubject,
  contentType: string,
  head: string,
  text: string,
): Promise<void> {
  subject.server.handle(stallAfter(contentType, head));
  const controller = new AbortController();
  const stream = subject.model().createStream(subject.input({ signal: controller.signal }));
  const seen: string[] = [];
  const reading = (async () => {
    for await (const next of stream) {
      if (next.type === "text-delta") {
        seen.push(next.text);
        controller.abort();
      }
    }
  })();
  await expect(reading).rejects.toMatchObject({ name: "AbortError" });
  await expect(stream.final()).rejects.toMatchObject({ name: "AbortError" });
  expect(seen.join("")).toBe(text);
}
