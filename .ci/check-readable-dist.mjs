// node .ci/check-readable-dist.mjs <dist>: the build is readable, as a library's should be (its users
// minify their own bundles). An uncaught error under plain node prints the source line it was
// thrown from; a minified file's few huge lines buried the message under 11-15 KB of code. No line
// of an entry file (dist/index.js, .cjs) is over 400 characters, and no line of any file over 1,000
// (esbuild prints a long expression on one line; minifying made 10,000+). A chunk's import or export
// list is exempt: esbuild writes it on one line, and no error is thrown from it at run time.
import process from "node:process";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const dist = resolve(process.argv[2] ?? "dist");
const files = readdirSync(dist, { recursive: true, encoding: "utf8" }).filter((file) => /\.c?js$/.test(file));
if (files.length === 0) throw new Error(`no .js files in ${dist}: build first`);
const faults = [];
let longest = 0;
for (const file of files) {
  const limit = /^index\.c?js$/.test(file) ? 400 : 1000;
  readFileSync(join(dist, file), "utf8")
    .split("\n")
    .forEach((line, index) => {
      if (/^(import|export) \{[^}]*\}( from "[^"]*"| from '[^']*')?;$/.test(line)) return;
      longest = Math.max(longest, line.length);
      if (line.length > limit) faults.push(`${file}:${index + 1} is ${line.length} characters (at most ${limit})`);
    });
}
if (faults.length > 0) throw new Error(`dist is not readable:\n${faults.join("\n")}`);
process.stdout.write(
  `readable dist: ${files.length} files, entries within 400 characters a line, the longest line ${longest}\n`,
);
