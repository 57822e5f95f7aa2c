import type { BedrockRuntimeClient } from "@aws-sdk/client-bedrock-runtime";
import { Transform, pipeline, type Readable } from "node:stream";
import { NotAStreamError } from "../../internal/not-a-stream-error.js";
import { ResponseTooLargeError } from "../../internal/response-too-large-error.js";

/** What of the SDK's HTTP response this reads (`@smithy/protocol-http`'s HttpResponse). */
interface HTTPResponseLike {
  statusCode?: number;
  headers?: Record<string, string | undefined>;
  body?: unknown;
}

type Handler = (args: object) => Promise<{ response: unknown; output?: unknown }>;

/**
 * A middleware on the client's stack (public API), innermost in the deserialize step, so that it
 * sees the raw HTTP response before the SDK reads it: the body is counted as it streams and ends
 * in a `ResponseTooLargeError` past `maxResponseBytes`, the connection destroyed (a JSON reply and
 * a ConverseStream event stream alike); and a ConverseStream answered 2xx with something other
 * than an event stream (an HTML page) is refused before it is decoded.
 */
export function guardBedrockResponses(client: BedrockRuntimeClient, maxResponseBytes: number): void {
  client.middlewareStack.add(
    ((next: Handler, context: { commandName?: string }) => async (args: object) => {
      const result = await next(args);
      const response = result.response as HTTPResponseLike;
      if (!isReadable(response.body)) return result;
      const status = response.statusCode ?? 0;
      const contentType = response.headers?.["content-type"];
      if (
        context.commandName === "ConverseStreamCommand" &&
        status >= 200 &&
        status < 300 &&
        contentType !== undefined &&
        !/eventstream/i.test(contentType)
      ) {
        response.body.destroy();
        throw new NotAStreamError(contentType, "");
      }
      if (maxResponseBytes !== Infinity) response.body = capped(response.body, maxResponseBytes);
      return result;
    }) as unknown as Parameters<BedrockRuntimeClient["middlewareStack"]["add"]>[0],
    { step: "deserialize", priority: "low", name: "keelsonResponseGuard" },
  );
}

function capped(body: Readable, limit: number): Readable {
  let bytesRead = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytesRead += chunk.byteLength;
      if (bytesRead > limit) callback(new ResponseTooLargeError(limit, bytesRead));
      else callback(null, chunk);
    },
  });
  // An error on either side ends both: past the cap, the connection is destroyed, the rest unread.
  return pipeline(body, counter, () => undefined);
}

function isReadable(body: unknown): body is Readable {
  return (
    body !== null &&
    typeof body === "object" &&
    typeof (body as Readable).pipe === "function" &&
    typeof (body as Readable).destroy === "function"
  );
}
