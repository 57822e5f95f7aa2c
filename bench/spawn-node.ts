import { spawn } from "node:child_process";

/** How long one worker may run before it is killed (a benchmark must stop by itself). */
const workerTimeoutMs = 120_000;

/**
 * Runs `node <script> …args` in a fresh process (plain node: no tsx loader) and parses the JSON
 * line it prints. Anything on stderr (warnings) is returned alongside, for the report.
 */
export function runNode(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ result: unknown; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: { ...process.env, ...env, NODE_OPTIONS: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (data: string) => (stdout += data));
    child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
    const timer = setTimeout(() => child.kill("SIGKILL"), workerTimeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code !== 0) {
        reject(new Error(`${script} ${args.join(" ")} exited with ${code}:\n${stderr.slice(0, 2000)}`));
        return;
      }
      try {
        resolve({ result: JSON.parse(stdout.trim().split("\n").at(-1) ?? ""), stderr });
      } catch {
        reject(
          new Error(
            `${script} ${args.join(" ")} printed no JSON result:\n${stdout.slice(0, 500)}${stderr.slice(0, 500)}`,
          ),
        );
      }
    });
  });
}
