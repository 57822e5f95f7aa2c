/**
 * A redirect keelson's fetch will not follow (to a URL that is not http(s), or past the hop limit):
 * thrown as fetch's own `TypeError("fetch failed")` cause, so an SDK treats it as any failed fetch,
 * and turned into a ProviderError that is not retried by the adapter's error mapping (see
 * `transportRefusal`). Not exported from the package.
 */
export class RefusedRedirectError extends Error {
  constructor(readonly what: string) {
    super(`keelson refused ${what}`);
    this.name = "RefusedRedirectError";
  }
}
