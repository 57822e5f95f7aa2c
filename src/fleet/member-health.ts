/** What a router knows of one member when it picks one for a call. */
export interface MemberHealth {
  /** Calls in flight on it (streams until they end). */
  inFlight: number;
  /** Calls it failed with an error another member could answer. */
  failures: number;
  /** The moving average of its answered calls' duration, in milliseconds; undefined before the first. */
  latencyMs: number | undefined;
  /** How long it still rests after a failure, in milliseconds (0: not resting). */
  restMs: number;
}

/** How a member's call ended, for its health. */
export type CallOutcome =
  | { kind: "answered"; latencyMs: number }
  /** Failed with an error another member could answer: counted, and the member rests `restMs`. */
  | { kind: "failed"; restMs: number }
  /** Ended otherwise (an abort, an error any member would repeat): only no longer in flight. */
  | { kind: "ended" };

/** The weight of the newest duration in a member's moving average. */
export const latencyWeight = 0.3;

/** Reports a store that cannot be reached (a `warning` of the call that found it so). */
export type Warn = (message: string) => void;

/** The group's health, as a router reads and records it (in the process, or shared through a store). */
export interface HealthBook {
  /** Every member's health, in the group's order; `warn` says when it cannot be read where it is shared. */
  read(warn: Warn): Promise<MemberHealth[]>;
  /** A call started on member `index`; the function returned records how it ended (once). */
  start(index: number, warn: Warn): (outcome: CallOutcome) => void;
}

/** The group's health in this process. */
export class LocalHealth implements HealthBook {
  readonly #members: { inFlight: number; failures: number; latencyMs: number | undefined; restUntil: number }[];

  constructor(size: number) {
    this.#members = Array.from({ length: size }, () => ({
      inFlight: 0,
      failures: 0,
      latencyMs: undefined,
      restUntil: 0,
    }));
  }

  read(): Promise<MemberHealth[]> {
    return Promise.resolve(this.snapshot());
  }

  snapshot(): MemberHealth[] {
    const now = Date.now();
    return this.#members.map(({ inFlight, failures, latencyMs, restUntil }) => ({
      inFlight,
      failures,
      latencyMs,
      restMs: Math.max(0, restUntil - now),
    }));
  }

  start(index: number): (outcome: CallOutcome) => void {
    const member = this.#members[index]!;
    member.inFlight++;
    let ended = false;
    return (outcome) => {
      if (ended) return;
      ended = true;
      member.inFlight--;
      if (outcome.kind === "answered") {
        const { latencyMs } = outcome;
        member.latencyMs =
          member.latencyMs === undefined
            ? latencyMs
            : member.latencyMs + latencyWeight * (latencyMs - member.latencyMs);
        member.restUntil = 0;
      } else if (outcome.kind === "failed") {
        member.failures++;
        member.restUntil = Math.max(member.restUntil, Date.now() + outcome.restMs);
      }
    };
  }
}
