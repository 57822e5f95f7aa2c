import { readFileSync } from "node:fs";
import type { Http2ServerResponse } from "node:http2";
import { afterEach, beforeEach } from "vitest";
import { BedrockChatModel } from "../../src/adapters/bedrock/index.js";
import type { BedrockChatModelOptions } from "../../src/adapters/bedrock/index.js";
import { encodeEvents } from "./aws-event-stream.js";
import type { Http2Handler, LoopbackHttp2Server } from "./loopback-http2-server.js";
import type { CassetteInteraction } from "./shared-fixtures.js";
import { sendEventStream, sendJSON, startLoopbackHttp2Server } from "./loopback-http2-server.js";
import type { CallMode } from "./run-modes.js";

/** Fake static credentials: the secret must never show up in an error, an event or a cache key. */
export const fakeCredentials = { accessKeyId: "AKIDSENTINEL", secretAccessKey: "SECRET-SENTINEL-xyz" };

export interface BedrockLoopback {
  server: LoopbackHttp2Server;
  /** A BedrockChatModel on the real SDK, pointed at the loopback server. */
  model(modelId?: string, options?: BedrockChatModelOptions): BedrockChatModel;
  close(): Promise<void>;
}

export async function startBedrockLoopback(): Promise<BedrockLoopback> {
  const server = await startLoopbackHttp2Server();
  return {
    server,
    model: (modelId = "us.amazon.nova-micro-v1:0", options = {}) =>
      new BedrockChatModel(modelId, {
        region: "us-east-1",
        endpoint: server.url,
        credentials: fakeCredentials,
        ...options,
      }),
    close: () => server.close(),
  };
}

/** A fresh Bedrock loopback for each test of the describe block (or file) that calls it; the handle reaches the current one. */
export function useBedrockLoopback(): BedrockLoopback {
  let current: BedrockLoopback | undefined;
  const running = (): BedrockLoopback => {
    if (!current) throw new Error("The Bedrock loopback starts in beforeEach: use it inside a test.");
    return current;
  };
  beforeEach(async () => {
    current = await startBedrockLoopback();
  });
  afterEach(() => current?.close());
  return {
    get server() {
      return running().server;
    },
    model: (modelId, options) => running().model(modelId, options),
    close: () => running().close(),
  };
}

/** A Converse reply (JSON), or the same reply as ConverseStream events, by mode. */
export interface Reply {
  converse: unknown;
  events: Record<string, unknown>[];
}

export function replyFor(reply: Reply, mode: CallMode): Http2Handler {
  return (_request, response) =>
    mode === "create" ? sendJSON(response, 200, reply.converse) : sendEventStream(response, encodeEvents(reply.events));
}

/** An AWS error as the service sends it: status, `x-amzn-ErrorType` and a JSON `message`. */
export interface AWSErrorFixture {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export function replyError(fixture: AWSErrorFixture): Http2Handler {
  return (_request, response: Http2ServerResponse) => sendJSON(response, fixture.status, fixture.body, fixture.headers);
}

export function readLocalFixture<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../adapters/bedrock/__fixtures__/${name}`, import.meta.url), "utf8")) as T;
}

/** Lines of an `.ndjson` file, parsed. */
export function parseNDJSON(text: string): Record<string, unknown>[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * A Converse reply and the ConverseStream events that carry the same message, written from the
 * documented shapes: text and reasoning (redacted reasoning in one piece) as deltas, each toolUse as a block start and input fragments.
 */
export function replyOf(
  converse: {
    output: { message: { role: string; content: Record<string, any>[] } };
    stopReason: string;
    usage: Record<string, number>;
  },
  inputFragments = 2,
): Reply {
  const events: Record<string, unknown>[] = [{ messageStart: { role: "assistant" } }];
  converse.output.message.content.forEach((block, contentBlockIndex) => {
    if (typeof block.text === "string") {
      for (const text of split(block.text, 3))
        events.push({ contentBlockDelta: { contentBlockIndex, delta: { text } } });
    } else if (block.reasoningContent?.redactedContent !== undefined) {
      events.push({
        contentBlockDelta: {
          contentBlockIndex,
          delta: { reasoningContent: { redactedContent: block.reasoningContent.redactedContent } },
        },
      });
    } else if (block.reasoningContent) {
      const { text, signature } = block.reasoningContent.reasoningText as { text: string; signature?: string };
      for (const piece of split(text, 2))
        events.push({ contentBlockDelta: { contentBlockIndex, delta: { reasoningContent: { text: piece } } } });
      if (signature)
        events.push({ contentBlockDelta: { contentBlockIndex, delta: { reasoningContent: { signature } } } });
    } else if (block.toolUse) {
      const { toolUseId, name, input, type } = block.toolUse as Record<string, unknown>;
      events.push({
        contentBlockStart: { contentBlockIndex, start: { toolUse: { toolUseId, name, ...(type ? { type } : {}) } } },
      });
      for (const piece of split(JSON.stringify(input), inputFragments)) {
        events.push({ contentBlockDelta: { contentBlockIndex, delta: { toolUse: { input: piece } } } });
      }
    }
    events.push({ contentBlockStop: { contentBlockIndex } });
  });
  events.push(
    { messageStop: { stopReason: converse.stopReason } },
    { metadata: { usage: converse.usage, metrics: { latencyMs: 100 } } },
  );
  return { converse, events };
}

function split(text: string, parts: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / parts));
  const pieces: string[] = [];
  for (let index = 0; index < text.length; index += size) pieces.push(text.slice(index, index + size));
  return pieces;
}

/**
 * Replays a recorded interaction of ../shared/fixtures as it was sent: its status, its
 * content-type and its body (the event-stream bytes of a `!!binary` body, else `parsed_body` as
 * JSON). `extraHeaders` adds what the recorder dropped (x-amzn-ErrorType).
 */
export function replayInteraction(
  interaction: CassetteInteraction,
  extraHeaders: Record<string, string> = {},
): Http2Handler {
  const { status, headers, parsed_body: parsed, body } = interaction.response;
  const contentType = headers["content-type"]?.[0] ?? "application/json";
  const raw = typeof body === "object" && body !== null ? body.string : undefined;
  return (_request, response) => {
    response.writeHead(status.code, { "content-type": contentType, ...extraHeaders });
    if (raw !== undefined) response.end(typeof raw === "string" ? raw : Buffer.from(raw as Uint8Array));
    else response.end(JSON.stringify(parsed));
  };
}

/** The JSON body a recorded request carried. */
export function recordedRequestBody(interaction: CassetteInteraction): any {
  return JSON.parse(interaction.request.body as string);
}
