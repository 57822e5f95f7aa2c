import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A process's instructions by kind: running code, TurboFan compiling, garbage collection, and glibc's allocator. */
export interface InstructionCount {
  executed: number;
  compiling: number;
  collecting: number;
  allocating: number;
}

// V8's optimising compiler and its heap's collectors, by the C++ names cachegrind reports.
const compiling = /v8::internal::compiler::|OptimizedCompilationJob|TurbofanCompilationJob|PipelineImpl|Zone::/;
const collecting = /Scavenger|MarkCompact|Marking|Sweeper|Heap::|Evacuat/;
// glibc's malloc and free (V8's zones, Node's buffers): how long their paths run depends on the
// native heap's layout, which moves between identical runs by up to 1% of a call's count.
const allocating =
  /^(_int_malloc|_int_free|_int_realloc|_int_memalign|unlink_chunk|malloc_consolidate|sysmalloc|systrim|tcache_|malloc$|free$|cfree|realloc$|calloc$|__libc_(malloc|free|calloc|realloc))/;

/** Whether valgrind can be run here. */
export function hasValgrind(): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn("valgrind", ["--version"], { stdio: "ignore" });
    child.on("error", () => resolve(false));
    child.on("exit", (code) => resolve(code === 0));
  });
}

/**
 * Runs `node <args>` under cachegrind (instruction counts only) and sorts the instructions by the
 * function they ran in. Node runs with --predictable (one thread, fixed seeds) and a young
 * generation large enough that no scavenge falls in the measured calls, so two runs of the same
 * code count the same executed instructions to about a thousandth (glibc's allocator, counted
 * apart, moves more).
 */
export async function countInstructions(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<InstructionCount> {
  const dir = mkdtempSync(join(tmpdir(), "keelson-cachegrind-"));
  const out = join(dir, "cachegrind.out");
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        "valgrind",
        [
          "--tool=cachegrind",
          "--cache-sim=no",
          "--smc-check=all-non-file",
          `--cachegrind-out-file=${out}`,
          process.execPath,
          "--expose-gc",
          "--predictable",
          "--min-semi-space-size=64",
          "--max-semi-space-size=64",
          script,
          ...args,
        ],
        { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, NODE_OPTIONS: "", ...env } },
      );
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
      child.on("error", reject);
      child.on("exit", (code) =>
        code === 0
          ? resolve()
          : reject(
              new Error(`${script} ${args.join(" ")} under valgrind exited with ${code}:\n${stderr.slice(-2000)}`),
            ),
      );
    });
    return readCounts(readFileSync(out, "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function readCounts(text: string): InstructionCount {
  const count: InstructionCount = { executed: 0, compiling: 0, collecting: 0, allocating: 0 };
  let kind: keyof InstructionCount = "executed";
  for (const line of text.split("\n")) {
    if (line.startsWith("fn=")) {
      const name = line.slice(3);
      kind = compiling.test(name)
        ? "compiling"
        : collecting.test(name)
          ? "collecting"
          : allocating.test(name)
            ? "allocating"
            : "executed";
    } else if (line.charCodeAt(0) >= 48 && line.charCodeAt(0) <= 57) {
      count[kind] += Number(line.split(" ")[1]);
    }
  }
  return count;
}
