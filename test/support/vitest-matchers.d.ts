import type { KeelsonMatchers } from "../../src/testing/index.js";

declare module "vitest" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Assertion<T = any> extends KeelsonMatchers<T> {}
}
