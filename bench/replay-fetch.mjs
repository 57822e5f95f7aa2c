// Replays provider responses from memory, so that no socket is read in a measured part: the first
// request of each kind (its URL, streamed or not, with a response format or not) goes to the fake
// server and is recorded; later requests of that kind get the recorded bytes in a fresh Response.
// Install it before an SDK client is built (a client may keep the fetch it finds).
export function replayFetch() {
  const { fetch: networkFetch, Response } = globalThis;
  const recorded = new Map();
  globalThis.fetch = async (url, init) => {
    const body = typeof init?.body === "string" ? init.body : "";
    // includes(), not a regular expression: /"(format|response_format)"/ over a 500-message body cost
    // 360k instructions a call on both sides, which diluted the counted ratio of history-500.
    const format = body.includes('"format"') || body.includes('"response_format"');
    const key = `${url} ${body.includes('"stream":true')} ${format}`;
    let reply = recorded.get(key);
    if (!reply) {
      const response = await networkFetch(url, init);
      reply = {
        status: response.status,
        headers: [...response.headers],
        bytes: new Uint8Array(await response.arrayBuffer()),
      };
      recorded.set(key, reply);
    }
    return new Response(reply.bytes, { status: reply.status, headers: reply.headers });
  };
}
