import Anthropic from "@anthropic-ai/sdk";
import { BedrockRuntimeClient } from "@aws-sdk/client-bedrock-runtime";
import type { IncomingHttpHeaders } from "node:http";
import { inspect } from "node:util";
import OpenAI, { AzureOpenAI } from "openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AnthropicChatModel } from "../../src/adapters/anthropic/index.js";
import { AzureOpenAIChatModel } from "../../src/adapters/azure-openai/index.js";
import { BedrockChatModel } from "../../src/adapters/bedrock/index.js";
import { OpenAIChatModel, OpenAIResponsesChatModel } from "../../src/adapters/openai/index.js";
import { ChatModelError } from "../../src/index.js";
import type { ChatModel } from "../../src/index.js";
import { useBedrockLoopback } from "../support/bedrock-loopback.js";
import type { LoopbackServer } from "../support/loopback-server.js";
import { startLoopbackServer } from "../support/loopback-server.js";
import { callModes, type CallMode } from "../support/run-modes.js";

// A caller who builds their own SDK client and passes it as `client` gets the same redaction as a
// client keelson builds: the key or token the client sends is cut out of the error and the events,
// even when the server echoes it back. Each client is read through its public properties only.
const openAIKey = "sk-CALLER-openai-key-5d1f0b";
const rotatingKey = "sk-CALLER-rotating-key-8e2a";
const azureKey = "CALLER-azure-key-77c3e9a1";
const entraToken = "CALLER-entra-token-b41d96";
const anthropicKey = "sk-ant-CALLER-key-2f6c";
const anthropicToken = "CALLER-anthropic-oauth-9a0e";
const awsSecret = "CALLER-aws-secret-c83b1";
const awsSessionToken = "CALLER-aws-session-token-4e7d";

const eventNames = ["start", "retry", "repair", "fallback", "warning", "success", "error", "finish"] as const;

/** Every string reachable from `value`: own properties (hidden ones too), Headers, Maps, causes. */
function reachableStrings(value: unknown): string[] {
  const out: string[] = [];
  const seen = new Set<unknown>();
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === "string") {
      out.push(next);
      continue;
    }
    if (next === null || typeof next !== "object" || seen.has(next)) continue;
    seen.add(next);
    if (next instanceof Headers || next instanceof Map)
      for (const entry of next as Iterable<unknown>) pending.push(entry);
    for (const key of Reflect.ownKeys(next)) {
      const descriptor = Object.getOwnPropertyDescriptor(next, key);
      if (descriptor && "value" in descriptor) pending.push(descriptor.value);
    }
    if (next instanceof Error) pending.push(next.message, next.stack, (next as { cause?: unknown }).cause);
  }
  return out;
}

/** Calls once with every event recorded; the error (or output) and the events. */
async function settle(model: ChatModel, mode: CallMode): Promise<{ error: unknown; events: unknown[] }> {
  const events: unknown[] = [];
  for (const name of eventNames) model.emitter.on(name, (event: unknown) => events.push(event));
  const input = { messages: [{ role: "user" as const, content: "hi" }] };
  try {
    await (mode === "create" ? model.create(input) : model.createStream(input).final());
    return { error: undefined, events };
  } catch (error) {
    return { error, events };
  }
}

function expectNoSecret(label: string, secret: string, value: unknown): void {
  for (const text of [...reachableStrings(value), inspect(value, { depth: 6, showHidden: true })]) {
    const at = text.indexOf(secret);
    expect(at === -1, `${label} holds the secret: …${text.slice(Math.max(0, at - 40), at + 60)}…`).toBe(true);
  }
}

function credentialsIn(headers: IncomingHttpHeaders): string {
  return ["authorization", "api-key", "x-api-key", "x-amz-security-token"]
    .map((name) => String(headers[name] ?? ""))
    .join(" ");
}

async function expectRedacted(label: string, model: ChatModel, mode: CallMode, secret: string, sent: () => string) {
  const { error, events } = await settle(model, mode);
  expect(ChatModelError.isInstance(error), `${label}: ${String(error)}`).toBe(true);
  // The server did get the secret, and echoed it: the redaction is what keeps it out.
  expect(sent(), label).toContain(secret);
  expect(events.length, label).toBeGreaterThan(0);
  expectNoSecret(`${label}: the error`, secret, error);
  expectNoSecret(`${label}: the events`, secret, events);
}

describe.each(callModes)("a caller's own client's credentials, through %s", (mode) => {
  let server: LoopbackServer;
  beforeEach(async () => {
    server = await startLoopbackServer((request, response) => {
      response.writeHead(401, { "content-type": "application/json" });
      const echoed = credentialsIn(request.headers);
      response.end(
        request.url.includes("/v1/messages")
          ? JSON.stringify({ type: "error", error: { type: "authentication_error", message: `bad key ${echoed}` } })
          : JSON.stringify({ error: { message: `Incorrect API key provided: ${echoed}`, code: "invalid_api_key" } }),
      );
    });
  });
  afterEach(() => server.close());
  const sent = () => credentialsIn(server.requests.at(-1)!.headers);
  const once = { retry: { maxRetries: 0 } } as const;

  it("OpenAI: a client with a static apiKey, or an apiKey function", async () => {
    const keyed = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: openAIKey, maxRetries: 0 });
    await expectRedacted(
      "static",
      new OpenAIChatModel("gpt-4o-mini", { client: keyed, ...once }),
      mode,
      openAIKey,
      sent,
    );
    const rotating = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: async () => rotatingKey, maxRetries: 0 });
    await expectRedacted(
      "function",
      new OpenAIChatModel("gpt-4o-mini", { client: rotating, ...once }),
      mode,
      rotatingKey,
      sent,
    );
  });

  it("OpenAI Responses: a client with a static apiKey", async () => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: openAIKey, maxRetries: 0 });
    await expectRedacted(
      "responses",
      new OpenAIResponsesChatModel("gpt-5", { client, ...once }),
      mode,
      openAIKey,
      sent,
    );
  });

  it("Azure OpenAI: a client with an api key, or an Entra ID token provider", async () => {
    const apiVersion = "2024-10-21";
    const keyed = new AzureOpenAI({
      endpoint: server.url,
      apiKey: azureKey,
      apiVersion,
      deployment: "prod",
      maxRetries: 0,
    });
    await expectRedacted("api key", new AzureOpenAIChatModel("prod", { client: keyed, ...once }), mode, azureKey, sent);
    const entra = new AzureOpenAI({
      endpoint: server.url,
      azureADTokenProvider: async () => entraToken,
      apiVersion,
      deployment: "prod",
      maxRetries: 0,
    });
    await expectRedacted(
      "Entra ID",
      new AzureOpenAIChatModel("prod", { client: entra, ...once }),
      mode,
      entraToken,
      sent,
    );
  });

  it("Anthropic: a client with an apiKey, or an authToken", async () => {
    const keyed = new Anthropic({ baseURL: server.url, apiKey: anthropicKey, maxRetries: 0 });
    await expectRedacted(
      "apiKey",
      new AnthropicChatModel("claude-sonnet-4-5", { client: keyed, ...once }),
      mode,
      anthropicKey,
      sent,
    );
    const bearer = new Anthropic({ baseURL: server.url, authToken: anthropicToken, maxRetries: 0 });
    await expectRedacted(
      "authToken",
      new AnthropicChatModel("claude-sonnet-4-5", { client: bearer, ...once }),
      mode,
      anthropicToken,
      sent,
    );
  });

  describe("Bedrock", () => {
    const bedrock = useBedrockLoopback();
    const client = (
      credentials: NonNullable<NonNullable<ConstructorParameters<typeof BedrockRuntimeClient>[0]>["credentials"]>,
    ) => new BedrockRuntimeClient({ region: "us-east-1", endpoint: bedrock.server.url, credentials, maxAttempts: 1 });
    const echo = () =>
      bedrock.server.handle((request, response) => {
        response.writeHead(403, {
          "content-type": "application/json",
          "x-amzn-errortype": "UnrecognizedClientException",
        });
        response.end(JSON.stringify({ message: `The security token ${credentialsIn(request.headers)} is invalid.` }));
      });
    const bedrockSent = () => credentialsIn(bedrock.server.requests.at(-1)!.headers);

    it("should redact the session token of a client with static credentials or a credential provider", async () => {
      echo();
      const identity = { accessKeyId: "AKIDCALLER", secretAccessKey: awsSecret, sessionToken: awsSessionToken };
      for (const [label, credentials] of [
        ["static", identity],
        ["provider", () => Promise.resolve(identity)],
      ] as const) {
        const model = new BedrockChatModel("us.amazon.nova-micro-v1:0", { client: client(credentials), ...once });
        await expectRedacted(label, model, mode, awsSessionToken, bedrockSent);
      }
    });

    it("should watch a client shared by several models once, and leave the identity it resolves unchanged", async () => {
      echo();
      const identity = { accessKeyId: "AKIDCALLER", secretAccessKey: awsSecret, sessionToken: awsSessionToken };
      const shared = client(() => Promise.resolve(identity));
      new BedrockChatModel("us.amazon.nova-micro-v1:0", { client: shared });
      const watched = shared.config.credentials;
      const models = [1, 2, 3].map(
        () => new BedrockChatModel("us.amazon.nova-micro-v1:0", { client: shared, ...once }),
      );
      expect(shared.config.credentials).toBe(watched);
      await expect(shared.config.credentials()).resolves.toMatchObject(identity);
      await expectRedacted("shared", models[2]!, mode, awsSessionToken, bedrockSent);
    });
  });
});
