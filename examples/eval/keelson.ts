/**
 * The `keelson` command run from this checkout's source (what `npx keelson` runs from the built
 * package): `npx tsx examples/eval/keelson.ts eval --model … --cases … --replay …`.
 */
import process from "node:process";
import { runKeelsonCommand } from "keelson/eval";

process.exitCode = await runKeelsonCommand(process.argv.slice(2));
