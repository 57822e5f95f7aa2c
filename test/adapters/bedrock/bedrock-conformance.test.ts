import { describe, it } from "vitest";
import { BedrockChatModel } from "../../../src/adapters/bedrock/index.js";
import type { ToolDefinition } from "../../../src/index.js";
import type { AdapterConformanceOptions } from "../../../src/testing/index.js";
import { runAdapterConformance, startReplayServer } from "../../../src/testing/index.js";
import type { AWSErrorFixture } from "../../support/bedrock-loopback.js";
import {
  fakeCredentials,
  parseNDJSON,
  readLocalFixture,
  recordedRequestBody,
  replyOf,
} from "../../support/bedrock-loopback.js";
import {
  awsErrorResponse,
  bedrockReply,
  bedrockTextReply,
  cassetteResponse,
  readBedrockRequest,
} from "../../support/bedrock-wire.js";
import type { CassetteInteraction } from "../../support/shared-fixtures.js";
import {
  hasSharedFixtures,
  missingFixturesMessage,
  readCassette,
  readFixture,
  readJSONFixture,
} from "../../support/shared-fixtures.js";

const lookupIncident: ToolDefinition = {
  name: "lookup_incident",
  inputSchema: { type: "object", properties: { incident_id: { type: "string" } }, required: ["incident_id"] },
};
const pageOnCall: ToolDefinition = {
  name: "page_on_call",
  inputSchema: { type: "object", properties: { team: { type: "string" } }, required: ["team"] },
};

const common: Omit<AdapterConformanceOptions, "name" | "scenarios"> = {
  // The Bedrock runtime client speaks HTTP/2 to an http:// endpoint.
  server: () => startReplayServer({ protocol: "http2" }),
  // A model with native tool_choice and textFormat, so every rung of the ladder is Bedrock's own.
  createModel: (baseURL, options) =>
    new BedrockChatModel("us.anthropic.claude-sonnet-4-5-20250929-v1:0", {
      region: "us-east-1",
      endpoint: baseURL,
      credentials: fakeCredentials,
      ...options,
    }),
  textReply: bedrockTextReply,
  readRequest: readBedrockRequest,
  retryableError: awsErrorResponse(readLocalFixture<AWSErrorFixture>("throttling-exception.json"), {
    "retry-after": "0",
  }),
};

const own = (name: string, inputFragments?: number) => bedrockReply(replyOf(readLocalFixture(name), inputFragments));
const stopped = (stopReason: string) =>
  bedrockReply(
    replyOf({
      output: { message: { role: "assistant", content: [{ text: "Cut short here." }] } },
      stopReason,
      usage: { inputTokens: 5, outputTokens: 3, totalTokens: 8 },
    }),
  );
const awsError = (file: string) => awsErrorResponse(readLocalFixture<AWSErrorFixture>(file));

// Our own documented-format fixtures: meaningful on a bare clone.
runAdapterConformance(
  { describe, it },
  {
    ...common,
    name: "BedrockChatModel conformance (own fixtures)",
    scenarios: {
      text: [
        {
          name: "cached input tokens",
          reply: own("converse-text.json"),
          expected: {
            text: "INC-001 is an outage of auth-api.",
            usage: { inputTokens: 25, outputTokens: 9, totalTokens: 34, cachedInputTokens: 4 },
          },
        },
      ],
      toolCall: [
        {
          name: "lookup_incident",
          reply: own("converse-tool-use.json"),
          tools: [lookupIncident],
          expected: { name: "lookup_incident", args: { incident_id: "INC-001" }, id: "tooluse_lookup01" },
        },
      ],
      parallelToolCalls: [
        {
          name: "lookup_incident and page_on_call",
          reply: own("converse-two-tool-uses.json"),
          tools: [lookupIncident, pageOnCall],
          expected: [
            { name: "lookup_incident", args: { incident_id: "INC-003" }, id: "tooluse_lookup03" },
            { name: "page_on_call", args: { team: "auth" }, id: "tooluse_page01" },
          ],
        },
      ],
      streamedToolCallArgs: {
        reply: own("converse-tool-use.json", 3).stream!,
        tools: [lookupIncident],
        expected: { name: "lookup_incident", args: { incident_id: "INC-001" }, id: "tooluse_lookup01" },
      },
      finishReasons: [
        { name: "end_turn", reply: own("converse-text.json"), expected: "stop" },
        { name: "tool_use", reply: own("converse-tool-use.json"), tools: [lookupIncident], expected: "tool-calls" },
        { name: "max_tokens", reply: stopped("max_tokens"), expected: "length" },
        { name: "guardrail_intervened", reply: stopped("guardrail_intervened"), expected: "content-filter" },
      ],
      errors: [
        {
          name: "ThrottlingException",
          reply: awsError("throttling-exception.json"),
          expected: { statusCode: 429, reason: "rate-limit", isRetryable: true, code: "ThrottlingException" },
        },
        {
          name: "AccessDeniedException",
          reply: awsError("access-denied-exception.json"),
          expected: { statusCode: 403, reason: "authentication", isRetryable: false, code: "AccessDeniedException" },
        },
        {
          name: "UnrecognizedClientException",
          reply: awsError("unrecognized-client-exception.json"),
          expected: {
            statusCode: 403,
            reason: "authentication",
            isRetryable: false,
            code: "UnrecognizedClientException",
          },
        },
        {
          name: "ResourceNotFoundException",
          reply: awsError("resource-not-found-exception.json"),
          expected: { statusCode: 404, reason: "not-found", isRetryable: false, code: "ResourceNotFoundException" },
        },
        {
          name: "ServiceUnavailableException",
          reply: awsError("service-unavailable-exception.json"),
          expected: { statusCode: 503, reason: "server", isRetryable: true, code: "ServiceUnavailableException" },
        },
        {
          name: "ModelNotReadyException",
          reply: awsError("model-not-ready-exception.json"),
          expected: { statusCode: 429, reason: "server", isRetryable: true, code: "ModelNotReadyException" },
        },
        {
          name: "InternalServerException",
          reply: awsError("internal-server-exception.json"),
          expected: { statusCode: 500, reason: "server", isRetryable: true, code: "InternalServerException" },
        },
        {
          name: "ValidationException",
          reply: awsError("validation-exception-tool-choice-any.json"),
          expected: { statusCode: 400, reason: "invalid-request", isRetryable: false, code: "ValidationException" },
        },
      ],
    },
  },
);

// The recorded Bedrock traffic in ../shared/fixtures/bedrock, replayed byte for byte.
describe.skipIf(!hasSharedFixtures)(
  hasSharedFixtures ? "recorded fixtures" : `BedrockChatModel conformance (recorded): ${missingFixturesMessage}`,
  () => {
    if (!hasSharedFixtures) return;
    const interaction = (name: string): CassetteInteraction => readCassette(`bedrock/${name}.cassette.yaml`)[0]!;
    const recorded = (name: string) => cassetteResponse(interaction(name));
    /** The tools of a recorded request, as keelson tool definitions. */
    const recordedTools = (name: string): ToolDefinition[] =>
      recordedRequestBody(interaction(name)).toolConfig.tools.map(
        ({ toolSpec }: { toolSpec: { name: string; description: string; inputSchema: { json: object } } }) => ({
          name: toolSpec.name,
          description: toolSpec.description,
          inputSchema: toolSpec.inputSchema.json,
        }),
      );
    const streamedText = parseNDJSON(readFixture("bedrock/converse-stream-text.events.ndjson"))
      .map(
        (event) =>
          (event as { contentBlockDelta?: { delta?: { text?: string } } }).contentBlockDelta?.delta?.text ?? "",
      )
      .join("");
    const nonstreamText = readJSONFixture<{ output: { message: { content: { text: string }[] } } }>(
      "bedrock/converse-nonstream-text.json",
    ).output.message.content[0]!.text;

    runAdapterConformance(
      { describe, it },
      {
        ...common,
        name: "BedrockChatModel conformance (recorded)",
        scenarios: {
          text: [
            {
              name: "nova-micro Converse",
              reply: { create: recorded("converse-nonstream-text") },
              expected: { text: nonstreamText, usage: { inputTokens: 7, outputTokens: 30, totalTokens: 37 } },
            },
            {
              name: "nova-micro ConverseStream bytes",
              reply: { stream: recorded("converse-stream-text") },
              expected: { text: streamedText, usage: { inputTokens: 13, outputTokens: 82, totalTokens: 95 } },
            },
          ],
          toolCall: [
            {
              name: "temperature",
              reply: { create: recorded("converse-nonstream-one-tool-use") },
              tools: recordedTools("converse-nonstream-one-tool-use"),
              expected: {
                name: "temperature",
                args: { city: "London", date: "2022-01-01" },
                id: "tooluse_Mj06ft-ITJik1Otgpkc1uA",
              },
            },
            {
              name: "Claude reasoning, then the call",
              reply: { create: recorded("converse-nonstream-claude-reasoning-and-tool-use") },
              tools: [{ name: "get_user_country", inputSchema: { type: "object", properties: {} } }],
              expected: { name: "get_user_country", args: {}, id: "tooluse_W9DaUFg4Tj2cRPpndqxWSg" },
            },
            {
              name: "text, then a streamed toolUse block",
              reply: { stream: recorded("converse-stream-text-then-tool-use") },
              tools: recordedTools("converse-stream-text-then-tool-use"),
              expected: { name: "get_temperature", args: { city: "Paris" }, id: "tooluse_lAG_zP8QRHmSYOwZzzaCqA" },
            },
          ],
          finishReasons: [
            {
              name: "end_turn",
              reply: { create: recorded("converse-nonstream-text"), stream: recorded("converse-stream-text") },
              expected: "stop",
            },
            {
              name: "tool_use",
              reply: {
                create: recorded("converse-nonstream-one-tool-use"),
                stream: recorded("converse-stream-text-then-tool-use"),
              },
              tools: [
                ...recordedTools("converse-nonstream-one-tool-use"),
                ...recordedTools("converse-stream-text-then-tool-use"),
              ],
              expected: "tool-calls",
            },
          ],
          errors: [
            {
              name: "400 invalid model id (Converse)",
              reply: recorded("converse-error-400-invalid-model"),
              expected: { statusCode: 400, reason: "invalid-request", isRetryable: false },
            },
            {
              name: "400 invalid model id (ConverseStream)",
              reply: recorded("converse-stream-error-400-invalid-model"),
              expected: { statusCode: 400, reason: "invalid-request", isRetryable: false },
            },
          ],
        },
      },
    );
  },
);
