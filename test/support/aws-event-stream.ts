import { EventStreamCodec } from "@smithy/eventstream-codec";

const codec = new EventStreamCodec(
  (bytes: Uint8Array) => new TextDecoder().decode(bytes),
  (text: string) => new TextEncoder().encode(text),
);

/** One event-stream frame per `{ "<event-type>": payload }` (the shape the SDK yields), as Bedrock frames them. */
export function encodeEvents(events: readonly Record<string, unknown>[]): Uint8Array {
  const frames = events.map((event) => {
    const [type, payload] = Object.entries(event)[0]!;
    return codec.encode({
      headers: {
        ":event-type": { type: "string", value: type },
        ":content-type": { type: "string", value: "application/json" },
        ":message-type": { type: "string", value: "event" },
      },
      body: new TextEncoder().encode(JSON.stringify(payload)),
    });
  });
  return Buffer.concat(frames);
}

/** An exception frame, as the service sends one mid-stream. */
export function encodeException(exceptionType: string, message: string): Uint8Array {
  return codec.encode({
    headers: {
      ":exception-type": { type: "string", value: exceptionType },
      ":content-type": { type: "string", value: "application/json" },
      ":message-type": { type: "string", value: "exception" },
    },
    body: new TextEncoder().encode(JSON.stringify({ message })),
  });
}
