import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 20_000,
    pool: "forks",
    // Which suites skip here, and why, said once at the top of the run.
    globalSetup: ["test/support/announce-skips.ts"],
    // The AWS SDK warns on every Node below 22 that its releases after January 2027 will need 22:
    // nothing a test run can act on (keelson supports Node 20), so its switch is set for the tests.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
    // The ollama SDK warns "invalid json:" for each NDJSON line it cannot parse; the fault tests send
    // such lines on purpose and assert what keelson makes of them.
    onConsoleLog: (log) => !log.startsWith("invalid json:"),
  },
});
