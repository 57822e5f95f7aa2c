import { readingPart } from "../../core/reply-fields.js";
import type { BedrockRuntimeClient, ConverseCommandInput, ConverseStreamOutput } from "@aws-sdk/client-bedrock-runtime";
import { ChatModelError } from "../../core/errors/chat-model-error.js";
import { ProviderError } from "../../core/errors/provider-error.js";
import type { ProviderInput, RunContext } from "../../core/input.js";
import type { ProviderOutput } from "../../core/output.js";
import type { OpenedParts } from "../../core/stream/chunk-stream.js";
import { isAbortError } from "../../internal/abort.js";
import type { BedrockModelProfile } from "./bedrock-model-profiles.js";
import { bedrockSecrets } from "./bedrock-secrets.js";
import { buildConverseRequest } from "./build-converse-request.js";
import { ConverseStreamReader } from "./converse-stream-reader.js";
import { mapBedrockError } from "./map-bedrock-error.js";
import { readConverseResponse } from "./read-converse-response.js";

type BedrockSDK = typeof import("@aws-sdk/client-bedrock-runtime");

/** What a BedrockChatModel calls with. */
export interface BedrockConnection {
  readonly modelId: string;
  readonly client: BedrockRuntimeClient;
  readonly profile: BedrockModelProfile;
  /** The SDK's commands (loaded when the model was built). */
  readonly sdk: Pick<BedrockSDK, "ConverseCommand" | "ConverseStreamCommand">;
  /** Static credentials to keep out of every error message (those from the environment are added per error). */
  readonly secrets: readonly string[];
  /** The credentials the client's provider resolved so far (it adds to this list). */
  readonly issued?: readonly string[];
}

/** The Bedrock adapter's requests and responses, loaded on a model's first call (lazyImport). */
export async function createConverse(
  connection: BedrockConnection,
  input: ProviderInput,
  context: RunContext,
): Promise<ProviderOutput> {
  const request = buildConverseRequest(connection.modelId, input, connection.profile);
  const response = await sent(connection, request, () =>
    connection.client.send(new connection.sdk.ConverseCommand(request), { abortSignal: context.signal }),
  );
  return readingPart(source(connection), "response", () => readConverseResponse(response, connection.modelId));
}

/** A ConverseStream request, opened: its events for chunkStream, read by one ConverseStreamReader. */
export async function openConverseStream(
  connection: BedrockConnection,
  input: ProviderInput,
  context: RunContext,
): Promise<OpenedParts<ConverseStreamOutput>> {
  const request = buildConverseRequest(connection.modelId, input, connection.profile);
  const response = await sent(connection, request, () =>
    connection.client.send(new connection.sdk.ConverseStreamCommand(request), { abortSignal: context.signal }),
  );
  const reader = new ConverseStreamReader(connection.modelId);
  const mapError = (error: unknown) => mapConverseStreamError(connection, error, request);
  // No event stream at all is an empty reply, as before: nothing to read, no finish to demand.
  if (!response.stream) return { parts: noEvents(), toChunks: () => [], mapError };
  return {
    parts: response.stream,
    toChunks: (event) => readingPart(source(connection), "stream event", () => reader.toChunks(event)),
    end: () => reader.end(),
    mapError,
  };
}

/** The service's response to one command, or its refusal as keelson's error. */
async function sent<T>(
  connection: BedrockConnection,
  request: ConverseCommandInput,
  send: () => Promise<T>,
): Promise<T> {
  try {
    return await send();
  } catch (error) {
    throw mapConverseError(connection, error, request);
  }
}

function mapConverseError(connection: BedrockConnection, error: unknown, request: ConverseCommandInput): unknown {
  const sentToolChoice = Object.keys(request.toolConfig?.toolChoice ?? {})[0];
  return mapBedrockError(error, {
    modelId: connection.modelId,
    sentToolChoice,
    secrets: bedrockSecrets([...connection.secrets, ...(connection.issued ?? [])]),
  });
}

/** An error while reading the event stream: what the decoder throws (a truncated or garbled frame) is the service's fault too. */
function mapConverseStreamError(connection: BedrockConnection, error: unknown, request: ConverseCommandInput): unknown {
  const mapped = mapConverseError(connection, error, request);
  if (mapped === error && error instanceof Error && !isAbortError(error) && !ChatModelError.isInstance(error)) {
    return new ProviderError(`bedrock ${connection.modelId}: the event stream could not be read: ${error.message}`, {
      providerId: "bedrock",
      modelId: connection.modelId,
      reason: "server",
      cause: error,
    });
  }
  return mapped;
}

async function* noEvents(): AsyncGenerator<ConverseStreamOutput> {}

function source(connection: BedrockConnection): { providerId: string; modelId: string } {
  return { providerId: "bedrock", modelId: connection.modelId };
}
