/**
 * A response body read past its cap (`maxResponseBytes`), raised from inside the body stream:
 * whatever SDK reads the body lets it through or wraps it, and the adapter's error mapping turns
 * it into a ProviderError (see `transportRefusal`). Not exported from the package.
 */
export class ResponseTooLargeError extends Error {
  constructor(
    readonly limit: number,
    readonly bytesRead: number,
  ) {
    super(`the response body passed ${limit} bytes`);
    this.name = "ResponseTooLargeError";
  }
}
