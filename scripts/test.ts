/**
 * `npm test`: every check of the repository, in order, stopping at the first that fails:
 *
 * 1. `npm run tools:install`: the pinned toolchains of `tools/` (forge, Node 22), when missing;
 * 2. `npm run typecheck`, `npm run lint`, `npm run lint:sol`;
 * 3. `npm run test:forge`: the forge suite (its `[SKIP]` lines, or its skip as a whole, are kept);
 * 4. vitest (`vitest run`, Hardhat's network in-process), whose skip-summary reporter writes its skipped tests to a
 *    file instead of printing them;
 *
 * then the summary of what was skipped, vitest's and forge's, with each reason: the last thing the run prints.
 *
 * @packageDocumentation
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { forgeSkippedTests, SKIPPED_FILE_VARIABLE, skipSummary, type SkippedTest } from "./lib/skip-summary";
import { REPO_ROOT } from "./lib/toolchains";

/** The outcome of one step: its exit code, and its standard output when it was kept. */
interface StepRun {
  readonly code: number;
  readonly stdout: string;
}

/**
 * Runs a command in the repository's root with the terminal's output, keeping its standard output too when asked.
 *
 * @param command - The executable (`npm`, or a path).
 * @param args - Its arguments.
 * @param options - `keep` to keep (and still show) standard output; `env` added to this process's.
 * @returns Its exit code (1 when it could not start or ended on a signal) and what it printed when kept.
 */
function runStep(command: string, args: readonly string[], options: { keep?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<StepRun> {
  return new Promise((resolveRun) => {
    const child = spawn(command, args, {
      cwd: REPO_ROOT,
      env: { ...process.env, ...options.env },
      stdio: ["inherit", options.keep ? "pipe" : "inherit", "inherit"],
      shell: process.platform === "win32",
    });
    const chunks: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      process.stdout.write(chunk);
    });
    child.once("error", (error) => {
      console.error(`npm test: could not start ${command}: ${error.message}`);
      resolveRun({ code: 1, stdout: "" });
    });
    child.once("close", (code) => resolveRun({ code: code ?? 1, stdout: Buffer.concat(chunks).toString("utf8") }));
  });
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

async function main(): Promise<number> {
  for (const script of ["tools:install", "typecheck", "lint", "lint:sol"]) {
    const step = await runStep(npm, ["run", script]);
    if (step.code !== 0) return failed(`npm run ${script}`, step.code);
  }
  const forge = await runStep(npm, ["run", "test:forge"], { keep: true });
  if (forge.code !== 0) return failed("npm run test:forge", forge.code);

  const work = mkdtempSync(join(tmpdir(), "trustgate-test-"));
  try {
    const skippedFile = join(work, "vitest-skipped.json");
    const vitest = await runStep(npm, ["exec", "--", "vitest", "run"], { env: { [SKIPPED_FILE_VARIABLE]: skippedFile } });
    if (vitest.code !== 0) return failed("vitest run", vitest.code);
    const skipped: SkippedTest[] = [
      ...(JSON.parse(readFileSync(skippedFile, "utf8")) as SkippedTest[]),
      ...forgeSkippedTests(forge.stdout),
    ];
    console.log(`\n${skipSummary(skipped).join("\n")}`);
    return 0;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function failed(step: string, code: number): number {
  console.error(`\nnpm test failed: ${step} exited ${code}`);
  return code;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error("npm test failed:", error);
    process.exit(1);
  },
);
