import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { hasSharedFixtures, missingFixturesMessage } from "./shared-fixtures.js";
import { missingRedisMessage } from "./redis-server.js";

/**
 * vitest's globalSetup: says once, at the top of `npm test`, which suites skip on this machine and
 * why (the default reporter shows a skipped file's count, not its reason).
 */
export default function announceSkips(): void {
  const skips: string[] = [];
  if (!hasSharedFixtures) skips.push(`the suites that replay recorded traffic: ${missingFixturesMessage}`);
  if (!process.env.REDIS_URL && spawnSync("redis-server", ["--version"]).status !== 0)
    skips.push(`the shared-store (Redis) suites: ${missingRedisMessage}`);
  if (!existsSync("/usr/bin/chromium"))
    skips.push("the HTML report's Chromium test: no /usr/bin/chromium (apt-get install chromium): skipped");
  for (const skip of skips) process.stdout.write(`Skipping ${skip}\n`);
}
