import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createServer, connect } from "node:net";

export interface RedisForTests {
  url: string;
  stop(): Promise<void>;
}

/**
 * A Redis server on loopback for the shared-cache tests: REDIS_URL when CI started one, else a
 * private redis-server on a free port when the binary is installed, else undefined (tests skip).
 */
export async function redisForTests(): Promise<RedisForTests | undefined> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: async () => {} };
  if (spawnSync("redis-server", ["--version"]).status !== 0) return undefined;
  const port = await freePort();
  const child: ChildProcess = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    {
      stdio: "ignore",
    },
  );
  await waitForPort(port, 5_000);
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

export const missingRedisMessage = "no REDIS_URL and no redis-server on PATH (apt-get install redis-server): skipped";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server did not listen on port ${port} within ${timeoutMs} ms`);
}
