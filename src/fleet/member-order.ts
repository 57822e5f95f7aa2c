import type { MemberHealth } from "./member-health.js";
import type { RouterStrategy } from "./router-options.js";

/**
 * The order a call tries the members in (their indexes): the members not resting, the strategy's
 * pick first and the rest after it by the same measure, then the resting ones, the soonest back
 * first. `turn` is the router's call count (round-robin's position); `random` draws in [0, 1).
 */
export function memberOrder(
  strategy: RouterStrategy,
  health: readonly MemberHealth[],
  turn: number,
  random: () => number = Math.random,
): number[] {
  const indexes = health.map((_, index) => index);
  const ready = indexes.filter((index) => health[index]!.restMs <= 0);
  const resting = indexes
    .filter((index) => health[index]!.restMs > 0)
    .sort((a, b) => health[a]!.restMs - health[b]!.restMs);
  return [...rank(strategy, ready, health, turn, random), ...resting];
}

function rank(
  strategy: RouterStrategy,
  ready: number[],
  health: readonly MemberHealth[],
  turn: number,
  random: () => number,
): number[] {
  // Array.prototype.sort is stable: ties keep the group's order.
  const by = (measure: (member: MemberHealth) => number, then: (member: MemberHealth) => number = () => 0) =>
    [...ready].sort((a, b) => measure(health[a]!) - measure(health[b]!) || then(health[a]!) - then(health[b]!));
  switch (strategy) {
    case "ordered":
      return ready;
    case "round-robin": {
      if (ready.length === 0) return ready;
      const start = turn % ready.length;
      return [...ready.slice(start), ...ready.slice(0, start)];
    }
    case "random": {
      const shuffled = [...ready];
      for (let index = shuffled.length - 1; index > 0; index--) {
        const other = Math.floor(random() * (index + 1));
        [shuffled[index], shuffled[other]] = [shuffled[other]!, shuffled[index]!];
      }
      return shuffled;
    }
    case "least-busy":
      return by((member) => member.inFlight);
    case "lowest-latency":
      // A member not measured yet goes first (the least busy of them): each one is measured before the averages decide.
      return by(
        (member) => member.latencyMs ?? -1,
        (member) => member.inFlight,
      );
    case "fewest-failures":
      return by((member) => member.failures);
  }
}
