import type { ConformanceCaseId } from "./conformance-cases.js";
import type { Run } from "./conformance-run.js";

/** How the cases reach the test framework: a test of a case, or a case reported as not run here. */
export interface CaseDefiner {
  it(id: ConformanceCaseId, name: string, body: (run: Run) => Promise<void>): void;
  /** A case with nothing to run in this mode (no recording, no reply): reported as skipped. */
  missing(id: ConformanceCaseId, why: string): void;
}
