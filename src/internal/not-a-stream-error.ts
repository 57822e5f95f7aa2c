/**
 * A stream request answered 2xx with a body that is not a stream (a proxy's or a login page, a
 * JSON reply): raised before any of it is read as one, and turned into a ProviderError by the
 * adapter's error mapping (see `transportRefusal`). Not exported from the package.
 */
export class NotAStreamError extends Error {
  constructor(
    readonly contentType: string,
    /** The body's start, as sent (redacted by the error mapping, which knows the credentials). */
    readonly bodyStart: string,
  ) {
    super(`a stream request was answered with ${contentType}, not a stream`);
    this.name = "NotAStreamError";
  }

  /** Whether the body is a web page. */
  get isHTML(): boolean {
    return /html/i.test(this.contentType) || /^\s*</.test(this.bodyStart);
  }
}
