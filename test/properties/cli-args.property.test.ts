/**
 * Property-based tests of the command line's arguments, through its public entry point `main(argv, io, deps)`.
 *
 * Input covered: any argv — random and hostile tokens, known flags with hostile values (control characters,
 * escape sequences, numbers out of range, prototype keys), unknown flags, `--flag=value` forms, and fake secrets
 * where a user puts them (`--api-key`, credentials, a query or a fragment in `--api`/`--rpc`/`--jwks`, a provider
 * key in the `--rpc` path). The scan itself is a stand-in (`deps.runDrift`), so only the parsing and validation
 * path runs; the embedded environment is a stand-in too.
 *
 * Property: `main` never throws and settles quickly; the exit code is one of the documented ones and never 1 (an
 * "unexpected error": every bad argument is a usage error, 2); a usage error is one line on stderr starting with
 * `trustgate: `; nothing printed holds a raw control character or any part of a secret.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIFT_OPTION_NAMES } from "../../src/cli/drift-options.js";
import { MAIN_HELP } from "../../src/cli/help.js";
import { type EmbeddedEnvironment, main, type MainDependencies, type RunDriftFunction } from "../../src/cli/main.js";
import type { DriftConfig } from "../../src/drift/config.js";
import { errorRow, passToFail, report, row } from "../cli/report-fixture.js";
import { hostileString, PASSWORD_SECRET, PATH_SECRET, RAW_CONTROL, SECRET, expectNoSecrets, within } from "./support.js";

const REPORTS = [
  report([row({ agentId: "1" }), row({ agentId: "2" })]),
  report([row({ agentId: "1" }), passToFail("2")]),
  report([errorRow("1"), errorRow("2")]),
];

let dir: string;
let previousCwd: string;
beforeAll(() => {
  // Random --json/--markdown/--state/--jwks values are file names: they land in a scratch directory.
  previousCwd = process.cwd();
  dir = mkdtempSync(join(tmpdir(), "trustgate-cli-props-"));
  mkdirSync(join(dir, "sub"));
  writeFileSync(join(dir, "jwks.json"), JSON.stringify({ keys: [{ kty: "EC", crv: "P-256", x: "AA", y: "AA", kid: "k" }] }));
  process.chdir(dir);
});
afterAll(() => {
  process.chdir(previousCwd);
});

/** Values for the flags: hostile text, numbers around every range, and values that parse. */
const flagValue = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: hostileString() },
    { weight: 2, arbitrary: fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String) },
    { weight: 1, arbitrary: fc.double({ noNaN: false }).map(String) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        "0",
        "1",
        "51",
        "100",
        "101",
        "64",
        "65",
        "2.5%",
        "101%",
        "36h",
        "0s",
        "500ms",
        "2h",
        "all",
        "auto",
        "off",
        "base",
        "base:1",
        "base:1,base:2",
        "base:1:olas",
        "1:0",
        "solana:1",
        "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4",
        "0xd5fdccd492bb5568bc7aeb1f1e888e0bba6276f5",
        "http://127.0.0.1:1",
        "https://127.0.0.1:2/api/",
        "ftp://127.0.0.1/",
        "jwks.json",
        "file:///nonexistent/jwks.json",
        "flagged,limited,developing,established",
        "none,low,moderate,elevated,heavy",
      ),
    },
  );

/** Flags whose values are file names written to: kept inside the scratch directory. */
const OUTPUT_FLAGS = new Set(["json", "markdown"]);
const VALUE_FLAGS = DRIFT_OPTION_NAMES.filter((name) => !OUTPUT_FLAGS.has(name));

const outputValue = fc.oneof(
  fc.constantFrom("-", "report.json", "report.md", "./report.json", "sub/../report.json", "sub", "missing/report.json", " ", ""),
  hostileString().map((s) => s.replace(/[/\\]/g, "_").replace(/^\.+/, "x")),
);

/** The places a user puts a secret, as argv tokens. */
const secretPlacement: fc.Arbitrary<string[]> = fc.constantFrom<string[]>(
  ["--api-key", SECRET],
  [`--api-key=${SECRET}`],
  ["--api-key", ` ${SECRET}\n`],
  [`--api-key=-${SECRET}`],
  ["--api-key", `-${SECRET}`],
  ["--api", `http://user:${PASSWORD_SECRET}@127.0.0.1:1`],
  ["--api", `http://${PASSWORD_SECRET}@127.0.0.1:1/`],
  ["--api", `http://127.0.0.1:1/api?key=${SECRET}`],
  ["--api", `http://127.0.0.1:1/#${SECRET}`],
  ["--api", `http://127.0.0.1:1/${PATH_SECRET}?`],
  ["--rpc", `http://127.0.0.1:1/v2/${PATH_SECRET}`],
  ["--rpc", `https://u:${PASSWORD_SECRET}@127.0.0.1:1/v2/${PATH_SECRET}`],
  ["--rpc", `wss://127.0.0.1:1/ws?apikey=${SECRET}`],
  ["--rpc", `http://127.0.0.1:1/v2/${PATH_SECRET}/x y`],
  ["--rpc", `ftp://127.0.0.1:1/v2/${PATH_SECRET}`],
  ["--jwks", `http://127.0.0.1:1/jwks.json?token=${SECRET}`],
  ["--jwks", `https://u:${PASSWORD_SECRET}@127.0.0.1:1/jwks.json`],
  ["--jwks", `http://127.0.0.1:1/jwks.json#${SECRET}`],
  ["--issuer", `https://u:${PASSWORD_SECRET}@127.0.0.1:2`],
  ["--issuer", `https://127.0.0.1:2/?key=${SECRET}`],
  ["--issuer", `https://127.0.0.1:2/#${SECRET}`],
);

/** One piece of an argv. */
const piece: fc.Arbitrary<string[]> = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(fc.constantFrom(...VALUE_FLAGS), flagValue()).map(([flag, value]) => [`--${flag}`, value]) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...VALUE_FLAGS), flagValue()).map(([flag, value]) => [`--${flag}=${value}`]) },
  { weight: 1, arbitrary: fc.constantFrom(...VALUE_FLAGS).map((flag) => [`--${flag}`]) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom("--json", "--markdown"), outputValue).map(([flag, value]) => [flag, value]) },
  { weight: 2, arbitrary: secretPlacement },
  {
    weight: 3,
    arbitrary: fc.constantFrom<string[]>(
      ["--rpc", "http://127.0.0.1:1"],
      ["--api", "http://127.0.0.1:2"],
      ["--agents", "base:1,base:2"],
      ["--all"],
      ["--demo"],
      ["--quiet"],
      ["-q"],
      ["--wide"],
      ["--full"],
      ["--"],
      ["-"],
      ["-h"],
    ),
  },
  { weight: 1, arbitrary: hostileString().map((s) => [s]) },
  { weight: 1, arbitrary: hostileString().map((s) => [`--${s}`]) },
);

const command = fc.oneof(
  { weight: 12, arbitrary: fc.constant(["drift"]) },
  { weight: 1, arbitrary: fc.constantFrom<string[]>([], ["--help"], ["help"], ["help", "drift"], ["--version"], ["-h"]) },
  { weight: 1, arbitrary: hostileString().map((s) => [s]) },
);

const argvArbitrary = fc.tuple(command, fc.array(piece, { maxLength: 8 })).map(([head, pieces]) => [...head, ...pieces.flat()]);

function harness(env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const calls: DriftConfig[] = [];
  let pick = 0;
  const runDrift: RunDriftFunction = async (config) => {
    calls.push(config);
    return REPORTS[pick++ % REPORTS.length]!;
  };
  const startEmbedded = async (): Promise<EmbeddedEnvironment> => ({
    rpcUrl: "http://127.0.0.1:40001",
    chainId: 8453,
    oracle: "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4",
    apiUrl: "http://127.0.0.1:40002",
    issuer: "http://127.0.0.1:40002",
    jwksUrl: "http://127.0.0.1:40002/.well-known/jwks.json",
    close: async () => {},
  });
  const deps: MainDependencies = { runDrift, startEmbedded, now: () => new Date("2026-11-22T12:00:00Z") };
  return {
    io: {
      stdout: { write: (chunk: string) => out.push(chunk) },
      stderr: { write: (chunk: string) => err.push(chunk) },
      env,
      isTTY: false,
    },
    deps,
    calls,
    stdout: () => out.join(""),
    stderr: () => err.join(""),
  };
}

/** Runs main over argv and checks the property; returns what happened for further checks. */
async function checkMain(argv: string[], env: Record<string, string> = {}) {
  const h = harness(env);
  let code: number;
  try {
    code = await within(main(argv, h.io, h.deps), 10_000, `main(${JSON.stringify(argv)})`);
  } catch (error) {
    return expect.fail(`main threw for ${JSON.stringify(argv)}: ${String(error)}`);
  }
  const stdout = h.stdout();
  const stderr = h.stderr();
  const context = `argv ${JSON.stringify(argv)}\nexit ${code}\nstderr ${JSON.stringify(stderr)}`;
  expect([0, 2, 3, 4], context).toContain(code);
  if (code === 2 && stderr !== MAIN_HELP) {
    expect(stderr, context).toMatch(/^trustgate: [^\n]*\S[^\n]*\n$/);
  }
  if (h.calls.length === 0 && code !== 0) expect(code, context).toBe(2);
  for (const [name, text] of Object.entries({ stdout, stderr })) {
    expect(RAW_CONTROL.test(text), `${name} holds a raw control character\n${context}`).toBe(false);
  }
  expectNoSecrets({ stdout, stderr });
  if (h.calls.length > 0) seen.runs++;
  else if (code === 2) seen.usage++;
  else seen.help++;
  return { code, stdout, stderr, calls: h.calls };
}

/** Exit codes seen, so that a property that never reached a scan cannot pass unnoticed. */
const seen = { runs: 0, usage: 0, help: 0 };

describe("trustgate CLI arguments (property)", () => {
  it("any argv: a documented exit code, never an unexpected error, one clear line, no control character, no secret", async () => {
    await fc.assert(
      fc.asyncProperty(argvArbitrary, async (argv) => {
        await checkMain(argv);
      }),
      { numRuns: 400, interruptAfterTimeLimit: 45_000 },
    );
    expect(seen.usage).toBeGreaterThan(0);
  }, 60_000);

  it("a report file named with control characters: the notice saying where it was written stays one clear line", async () => {
    for (const flag of ["--json", "--markdown"]) await checkMain(["drift", "--demo", flag, "\u001b[2J\u001b[H"]);
  });

  it("a valid invocation with one hostile flag: refused with a usage error naming the flag, or run with the key kept whole", async () => {
    const base = ["drift", "--rpc", "http://127.0.0.1:1", "--api", "http://127.0.0.1:2", "--agents", "base:1"];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...VALUE_FLAGS), flagValue(), fc.boolean(), async (flag, value, withKey) => {
        const argv = [...base, ...(withKey ? ["--api-key", SECRET] : []), `--${flag}=${value}`];
        const result = await checkMain(argv);
        if (result.code === 2) {
          // One line, and no longer than the value it may quote plus a sentence: nothing else is dumped.
          expect(result.stderr.length, result.stderr).toBeLessThan(value.length + 600);
        } else {
          expect(result.calls).toHaveLength(1);
          const apiKey = flag === "api-key" ? value.trim() : withKey ? SECRET : undefined;
          expect(result.calls[0]!.apiKey).toBe(apiKey);
        }
      }),
      { numRuns: 300, interruptAfterTimeLimit: 30_000 },
    );
    // The hostile values do not all fail: a good share of the invocations reached the (stand-in) scan.
    expect(seen.runs).toBeGreaterThan(10);
  }, 60_000);
});
