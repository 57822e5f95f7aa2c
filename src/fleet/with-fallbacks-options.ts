/** Options of `withFallbacks`. */
export interface WithFallbacksOptions {
  /**
   * How long a model that failed (with an error another model could answer) is skipped by the
   * calls after, in milliseconds; a longer `Retry-After` from its provider wins. A model still
   * cooling down is tried last rather than not at all, when every other one failed too.
   * @default 30000
   */
  cooldownMs?: number | undefined;
}
