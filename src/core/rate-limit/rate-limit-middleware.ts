import type { ChatModelMiddleware, MiddlewareContext } from "../middleware/chat-model-middleware.js";
import type { Usage } from "../usage.js";
import { LazyModule } from "../loading/lazy-import.js";
import type { CallLimiter, BudgetKey } from "./call-limiter.js";
import type { RateLimitOptions } from "./rate-limit-options.js";

/** The limiter and rate-limiter-flexible load on the first request of a rate-limited model, not on import. */
const budgets = new LazyModule(() => import("./budget-limiter.js"));

/** The process's limiters: per store (or none), per endpoint, model and limits. */
const inProcess = new Map<string, Promise<CallLimiter>>();
const byStore = new WeakMap<object, Map<string, Promise<CallLimiter>>>();

/**
 * The `rateLimit` option as middleware (the innermost, next to the provider): each request is held
 * until the budget of the model's endpoint and model lets it go, and settled once answered (a stream
 * when it ends, from the usage its finish reports). A request answered further out (a mock, a
 * replay) spends nothing. `warn` reports a store that cannot be reached.
 */
export function rateLimitMiddleware(
  options: RateLimitOptions,
  model: BudgetKey,
  warn: (message: string, context: MiddlewareContext) => void,
): ChatModelMiddleware {
  let found: Promise<CallLimiter> | undefined;
  const limiter = () =>
    (found ??= limiterFor(options, model).catch((error: unknown) => {
      found = undefined;
      throw error;
    }));
  return {
    name: "rateLimit",
    async wrapCreate({ input, context, next }) {
      const permit = await (await limiter()).acquire(input, context.signal, (message) => warn(message, context));
      try {
        const output = await next();
        permit.settle(output.usage);
        return output;
      } catch (error) {
        await permit.fail(error);
        throw error;
      }
    },
    async *wrapStream({ input, context, next }) {
      const permit = await (await limiter()).acquire(input, context.signal, (message) => warn(message, context));
      let usage: Partial<Usage> | undefined;
      let failed = false;
      try {
        for await (const chunk of next()) {
          if (chunk.type === "finish" || chunk.type === "usage") usage = { ...usage, ...chunk.usage };
          yield chunk;
        }
      } catch (error) {
        failed = true;
        await permit.fail(error);
        throw error;
      } finally {
        // Ended, or left by its reader: either way the request is no longer in flight.
        if (!failed) permit.settle(usage);
      }
    },
  };
}

function limiterFor(options: RateLimitOptions, model: BudgetKey): Promise<CallLimiter> {
  const { store } = options;
  let limiters = inProcess;
  if (store !== undefined) {
    limiters = byStore.get(store) ?? new Map();
    byStore.set(store, limiters);
  }
  const limits = [options.requestsPerMinute, options.tokensPerMinute, options.maxConcurrent, options.windowMs];
  const entry = JSON.stringify([model.providerId, model.endpoint, model.modelId, ...limits]);
  let limiter = limiters.get(entry);
  if (limiter === undefined) {
    limiter = budgets.load().then(({ BudgetLimiter }) => new BudgetLimiter(options, model));
    // A failed load (the package missing) is tried again by the next request.
    limiter.catch(() => limiters.delete(entry));
    limiters.set(entry, limiter);
  }
  return limiter;
}
