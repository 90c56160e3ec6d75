/**
 * Running another program from a test, asynchronously (so that a chain or a server the test serves in this process
 * keeps answering meanwhile), with a clean environment: none of this run's own variables (vitest's, ts-node's,
 * `NODE_OPTIONS`, the kit's `TRUSTGATE_*`), no colours, `CI` set.
 */
import { type ChildProcess, spawn } from "node:child_process";

/** What a program did. */
export interface ChildRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Wall time, in ms (for the test's own log; never asserted). */
  readonly ms: number;
}

/** Options of {@link runChild}. */
export interface RunChildOptions {
  /** Killed and rejected after this long; default 600,000 ms. */
  readonly timeoutMs?: number | undefined;
  /** Variables added to (or replacing) the cleaned environment, `PATH` included. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Called with the started process, e.g. to send it a signal when the test sees it reach some point. */
  readonly onSpawn?: ((child: ChildProcess) => void) | undefined;
}

/**
 * Runs `command` in `cwd` and collects its output.
 *
 * @param command - The program.
 * @param args - Its arguments.
 * @param cwd - Where it runs.
 * @param options - Time limit, extra variables.
 * @returns Exit code, output and wall time.
 */
export function runChild(command: string, args: readonly string[], cwd: string, options: RunChildOptions = {}): Promise<ChildRun> {
  const timeoutMs = options.timeoutMs ?? 600_000;
  const env: Record<string, string | undefined> = { ...process.env, CI: "1", FORCE_COLOR: "0", NO_COLOR: "1" };
  for (const key of Object.keys(env)) if (/^(VITEST|TS_NODE|NODE_OPTIONS|TRUSTGATE_)/.test(key)) delete env[key];
  Object.assign(env, options.env);
  const started = Date.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    options.onSpawn?.(child);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${command} ${args.join(" ")} timed out after ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}
