import { NotAStreamError } from "./not-a-stream-error.js";

const startBytes = 1000;

/**
 * For a stream request's 2xx response: a `NotAStreamError` when its `content-type` is there and is
 * not one `streamTypes` matches (an HTML page where an event stream belongs), after reading the
 * body's first bytes for the message and cancelling the rest. A response without a content-type
 * passes: some servers send their streams without one.
 */
export async function checkStreamBody(response: Response, streamTypes: RegExp): Promise<void> {
  const contentType = response.headers.get("content-type");
  if (!response.ok || contentType === null || streamTypes.test(contentType)) return;
  throw new NotAStreamError(contentType, await bodyStart(response));
}

async function bodyStart(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  try {
    const { value } = await reader.read();
    return value ? new TextDecoder().decode(value.subarray(0, startBytes)) : "";
  } catch {
    return "";
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
