#!/usr/bin/env node
// The `keelson` command (`npx keelson eval …`): the eval entry's runKeelsonCommand, from the build.
import process from "node:process";
import { runKeelsonCommand } from "../dist/eval/index.js";

process.exitCode = await runKeelsonCommand(process.argv.slice(2));
