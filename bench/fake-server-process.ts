import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const script = fileURLToPath(new URL("./fake-server.mjs", import.meta.url));

/** Starts the fake provider server in its own process; `stop()` ends it (so does this process's exit). */
export function startFakeServer(): Promise<{ port: number; stop: () => void }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], {
      stdio: ["pipe", "pipe", "inherit"],
      env: { ...process.env, NODE_OPTIONS: "" },
    });
    let output = "";
    const stop = () => {
      child.stdin.end();
      child.kill("SIGTERM");
    };
    const timer = setTimeout(() => {
      stop();
      reject(new Error("the fake server did not start within 10 s"));
    }, 10_000);
    child.on("error", reject);
    child.stdout.setEncoding("utf8").on("data", (data: string) => {
      output += data;
      const line = output.split("\n").find((candidate) => candidate.startsWith("{"));
      if (!line) return;
      clearTimeout(timer);
      resolve({ port: (JSON.parse(line) as { port: number }).port, stop });
    });
  });
}
