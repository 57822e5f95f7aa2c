import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";

/** A child process driven line by line: commands on its stdin, one answer a line on its stdout. */
export interface LineWorker {
  send(line: string): void;
  /** Its next line, or a rejection naming its stderr when none comes within 20 s. */
  next(): Promise<string>;
  /** Sends `quit` and waits for the exit (killed after 5 s). */
  stop(): Promise<void>;
}

/** Starts `script` (TypeScript, run through tsx) with `args`, from `cwd`. */
export function startLineWorker(script: string, args: readonly string[], cwd: string): LineWorker {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    cwd,
    stdio: "pipe",
  });
  let stderr = "";
  child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    send: (line) => child.stdin.write(`${line}\n`),
    next: async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`worker gave no answer within 20 s: ${stderr}`)), 20_000);
      });
      try {
        const { value, done } = await Promise.race([lines.next(), timeout]);
        if (done) throw new Error(`worker exited: ${stderr}`);
        return value;
      } finally {
        clearTimeout(timer);
      }
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        const kill = setTimeout(() => child.kill("SIGKILL"), 5_000);
        child.once("exit", () => {
          clearTimeout(kill);
          resolve();
        });
        child.stdin.end("quit\n");
      }),
  };
}
