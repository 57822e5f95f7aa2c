import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

/**
 * The recorded provider traffic lives beside the clone in ../shared/fixtures and is read in place
 * (third-party data: never copied into the project). Suites that need it skip with a message
 * naming the folder when a clone has none; CI always has it.
 */
export const sharedFixturesDir = resolve(dirname(fileURLToPath(import.meta.url)), "../../../shared/fixtures");
export const hasSharedFixtures = existsSync(sharedFixturesDir);
export const missingFixturesMessage = `recorded fixtures not found at ${sharedFixturesDir} (a clone without ../shared): skipped`;

export function fixturePath(relative: string): string {
  return join(sharedFixturesDir, relative);
}

export function readFixture(relative: string): string {
  return readFileSync(fixturePath(relative), "utf8");
}

export function readJSONFixture<T = unknown>(relative: string): T {
  return JSON.parse(readFixture(relative)) as T;
}

/** One recorded interaction of a VCR cassette. */
export interface CassetteInteraction {
  request: { method: string; uri: string; headers: Record<string, string[]>; parsed_body?: unknown; body?: unknown };
  response: {
    status: { code: number; message?: string };
    headers: Record<string, string[]>;
    parsed_body?: unknown;
    body?: { string?: string } | string;
  };
}

export function readCassette(relative: string): CassetteInteraction[] {
  const document = parse(readFixture(relative)) as { interactions: CassetteInteraction[] };
  return document.interactions;
}
