import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDriftArgs, type DriftArgs, type DriftRunArgs } from "../../src/cli/drift-args";
import { DEFAULT_TRUST_ENCODING } from "../../src/config/encodings";
import { InvalidArgumentError } from "../../src/errors";

const NOW = new Date("2026-11-22T12:00:00Z");
const DAY = Math.floor(NOW.getTime() / 86_400_000);
const REAL = ["--rpc", "https://base.example/v2/secret", "--api", "https://rnwy.com"];
const GATE = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

function parse(argv: string[], env: Record<string, string | undefined> = {}): DriftArgs {
  return parseDriftArgs(argv, { env, now: () => NOW });
}

function run(argv: string[], env: Record<string, string | undefined> = {}): DriftRunArgs {
  const args = parse(argv, env);
  if (args.kind !== "run") throw new Error("expected a run");
  return args;
}

function refuses(argv: string[], message: RegExp, env: Record<string, string | undefined> = {}): void {
  let thrown: unknown;
  try {
    parse(argv, env);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(InvalidArgumentError);
  expect((thrown as InvalidArgumentError).shortMessage).toMatch(message);
  expect((thrown as InvalidArgumentError).shortMessage).not.toContain("\n");
}

describe("parseDriftArgs: defaults", () => {
  it("with no flag, runs the embedded default over every listed agent with the documented defaults", () => {
    const args = run([]);
    expect(args.embedded).toEqual({ chain: true, api: true });
    expect(args.endpoints).toEqual({});
    expect(args.settings).toEqual({
      scope: { kind: "all", auditFraction: 0.01, seed: DAY, eventsFromBlock: 0n },
      threshold: 51,
      maxAgeSeconds: 36 * 3600,
      concurrency: 8,
      encoding: DEFAULT_TRUST_ENCODING,
    });
    expect(args.output).toEqual({ tableRows: 50, quiet: false, ci: false });
  });

  it("the default audit seed is the UTC day number, so it changes from one day to the next", () => {
    const tomorrow = parseDriftArgs([], { env: {}, now: () => new Date(NOW.getTime() + 86_400_000) });
    expect(tomorrow.kind === "run" && tomorrow.settings.scope.kind === "all" && tomorrow.settings.scope.seed).toBe(DAY + 1);
  });

  it("returns help for --help and -h, even with other flags", () => {
    expect(parse(["--help"])).toEqual({ kind: "help" });
    expect(parse(["--agents", "base:1", "-h"])).toEqual({ kind: "help" });
  });
});

describe("parseDriftArgs: every flag", () => {
  it("reads every flag into the settings, endpoints and output", () => {
    const args = run([
      "--rpc", "wss://base.example/ws",
      "--oracle", "0xd5fdccd492bb5568bc7aeb1f1e888e0bba6276f4",
      "--api", "https://api.example/trust/",
      "--api-key", "k-123",
      "--issuer", "https://issuer.example/",
      "--jwks", "https://keys.example/jwks.json",
      "--agents", "base:12,bsc:7:olas",
      "--agents", "base:12:erc8004,ethereum:3",
      "--threshold", "75",
      "--gate", GATE.toLowerCase(),
      "--max-age", "1h30m",
      "--tier-encoding", "Established,developing,limited,flagged",
      "--sybil-encoding", "heavy,elevated,moderate,low,none",
      "--concurrency", "64",
      "--rate", "2.5",
      "--json", "out/report.json",
      "--markdown", "out/report.md",
      "--rows", "all",
      "-q",
    ], { CI: "true" });
    expect(args.embedded).toEqual({ chain: false, api: false });
    expect(args.endpoints).toEqual({
      rpcUrl: "wss://base.example/ws",
      oracle: "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4",
      apiUrl: "https://api.example/trust",
      issuer: "https://issuer.example",
      jwks: "https://keys.example/jwks.json",
    });
    expect(args.settings).toEqual({
      scope: {
        kind: "list",
        agents: [
          { chain: "base", chainId: 8453, agentId: "12", registry: "erc8004" },
          { chain: "bnb", chainId: 56, agentId: "7", registry: "olas" },
          { chain: "ethereum", chainId: 1, agentId: "3", registry: "erc8004" },
        ],
      },
      apiKey: "k-123",
      threshold: 75,
      gate: GATE,
      maxAgeSeconds: 5400,
      concurrency: 64,
      ratePerMinute: 2.5,
      encoding: {
        tiers: ["established", "developing", "limited", "flagged"],
        sybilSeverities: ["heavy", "elevated", "moderate", "low", "none"],
      },
    });
    expect(args.output).toEqual({ json: "out/report.json", markdown: "out/report.md", tableRows: Number.POSITIVE_INFINITY, quiet: true, ci: true });
  });

  it("reads --all with --chain (aliases resolved), --audit and --seed", () => {
    const args = run([...REAL, "--all", "--chain", "bsc", "--audit", "0.25", "--seed", "42"]);
    expect(args.settings.scope).toEqual({ kind: "all", chain: "bnb", auditFraction: 0.25, seed: 42 });
  });

  it("accepts --audit as a percentage and at both ends of 0..1", () => {
    const audit = (text: string) => {
      const scope = run(["--audit", text]).settings.scope;
      return scope.kind === "all" ? scope.auditFraction : undefined;
    };
    expect(audit("5%")).toBeCloseTo(0.05);
    expect(audit("0")).toBe(0);
    expect(audit("1")).toBe(1);
  });

  it("with --gate and no --threshold, leaves the threshold to the gate's policy", () => {
    const args = run(["--gate", GATE]);
    expect(args.settings.gate).toBe(GATE);
    expect(args.settings.threshold).toBeUndefined();
  });

  it("accepts the threshold bounds 0 and 100 and the concurrency bounds 1 and 64", () => {
    expect(run(["--threshold", "0"]).settings.threshold).toBe(0);
    expect(run(["--threshold", "100"]).settings.threshold).toBe(100);
    expect(run(["--concurrency", "1"]).settings.concurrency).toBe(1);
  });

  it("reads --rows as a count, 0 included", () => {
    expect(run(["--rows", "7"]).output.tableRows).toBe(7);
    expect(run(["--rows", "0"]).output.tableRows).toBe(0);
  });

  it("marks only the missing endpoint as embedded", () => {
    const rpcOnly = run(["--rpc", "http://127.0.0.1:8545", "--all"]);
    expect(rpcOnly.embedded).toEqual({ chain: false, api: true });
    const apiOnly = run(["--api", "http://127.0.0.1:8787", "--agents", "base:1"]);
    expect(apiOnly.embedded).toEqual({ chain: true, api: false });
  });

  it("accepts an explicit --agents list in the embedded default", () => {
    expect(run(["--agents", "base:5"]).settings.scope).toEqual({
      kind: "list",
      agents: [{ chain: "base", chainId: 8453, agentId: "5", registry: "erc8004" }],
    });
  });

  it("treats CI=false, CI=0 and an empty CI as not CI", () => {
    for (const value of ["false", "0", ""]) expect(run([], { CI: value }).output.ci).toBe(false);
    expect(run([], { CI: "1" }).output.ci).toBe(true);
  });
});

describe("parseDriftArgs: API key", () => {
  it("takes the key from TRUSTGATE_API_KEY when --api-key is not given", () => {
    expect(run([], { TRUSTGATE_API_KEY: " env-key " }).settings.apiKey).toBe("env-key");
  });

  it("prefers --api-key over the environment", () => {
    expect(run(["--api-key", "flag-key"], { TRUSTGATE_API_KEY: "env-key" }).settings.apiKey).toBe("flag-key");
  });

  it("ignores an empty environment variable and refuses an empty --api-key", () => {
    expect(run([], { TRUSTGATE_API_KEY: "" }).settings).not.toHaveProperty("apiKey");
    refuses(["--api-key", " "], /--api-key is empty/);
  });
});

describe("parseDriftArgs: --jwks files", () => {
  const dir = mkdtempSync(join(tmpdir(), "trustgate-jwks-"));
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  const key = { kty: "EC", crv: "P-256", x: "x", y: "y", kid: "rnwy-trust-v2" };

  it("reads a JWKS file (path or file: URL) into a key set", () => {
    const path = file("good.json", JSON.stringify({ keys: [key] }));
    expect(run(["--jwks", path]).endpoints.jwks).toEqual({ keys: [key] });
    expect(run(["--jwks", `file://${path}`]).endpoints.jwks).toEqual({ keys: [key] });
  });

  it.each([
    ["missing.json", null, /Cannot read --jwks file ".*missing\.json" \(ENOENT\)/],
    ["bad.json", "{not json", /--jwks file ".*bad\.json" is not JSON/],
    ["nokeys.json", JSON.stringify({ key: [] }), /is not a JWKS: no "keys" array/],
    ["empty.json", JSON.stringify({ keys: [] }), /holds no keys/],
    ["notkey.json", JSON.stringify({ keys: [key, { kid: "x" }] }), /keys\[1\] is not a JSON Web Key/],
  ])("refuses %s", (name, content, message) => {
    const path = content === null ? join(dir, name) : file(name, content);
    refuses(["--jwks", path], message);
  });

  it("refuses a malformed JWKS URL", () => {
    refuses(["--jwks", "https://"], /Invalid --jwks URL/);
  });
});

describe("parseDriftArgs: refusals (one line each)", () => {
  it.each([
    [["--thresold", "5"], /Unknown option --thresold \(did you mean --threshold\?\)/],
    [["--frobnicate"], /Unknown option --frobnicate \(see trustgate drift --help\)/],
    [["-x"], /Unknown option -x/],
    [["extra"], /Unexpected argument "extra"/],
    [["--rpc"], /Option --rpc needs a value/],
    [["--rpc", "--all"], /Option --rpc needs a value/],
    [["--threshold", "-1"], /Option --threshold needs a value \(to give a value starting with "-", write --threshold=-1\)/],
    [["--all=yes"], /Option --all does not take a value/],
    [["--threshold=-1"], /--threshold must be an integer from 0 to 100, got "-1"/],
    [["--threshold", "101"], /--threshold must be an integer from 0 to 100, got "101"/],
    [["--threshold", "5.5"], /--threshold must be an integer from 0 to 100/],
    [["--threshold", "abc"], /--threshold must be an integer from 0 to 100/],
    [["--concurrency", "0"], /--concurrency must be an integer from 1 to 64, got "0"/],
    [["--concurrency", "65"], /--concurrency must be an integer from 1 to 64, got "65"/],
    [["--rate", "0"], /--rate must be a positive number, got "0"/],
    [["--rate", "fast"], /--rate must be a positive number/],
    [["--max-age", "3y"], /--max-age: Invalid duration "3y"/],
    [["--max-age", "0"], /--max-age: Invalid duration "0": must be greater than zero/],
    [["--oracle", "0x12"], /Invalid --oracle "0x12": expected 0x followed by 40 hex digits/],
    [["--gate", "0x5FbDB2315678afecb367f032d93F642f64180aA3"], /Invalid --gate .*checksum does not match/],
    [["--rpc", "not a url", "--all"], /Invalid --rpc URL "not a url"/],
    [["--rpc", "ftp://x", "--all"], /Invalid --rpc URL "ftp:\/\/x": expected http or https or ws or wss/],
    [["--api", "ws://x", "--all"], /Invalid --api URL "ws:\/\/x": expected http or https/],
    [["--issuer", "rnwy.com"], /Invalid --issuer URL "rnwy.com"/],
    [["--agents", "base:1", "--all"], /--agents and --all exclude each other/],
    [[...REAL], /Choose the agents: --agents chain:id\[:registry\],\.\.\. or --all/],
    [["--rpc", "http://127.0.0.1:8545"], /Choose the agents/],
    [["--api", "http://127.0.0.1:8787", "--chain", "base"], /Choose the agents/],
    [["--agents", "basse:1"], /Invalid agent "basse:1": Unknown chain "basse"\. Did you mean "base"\?/],
    [["--agents", "base:x"], /Invalid agent "base:x": id "x" is not a non-negative integer/],
    [["--agents", "base:1:nowhere"], /unknown registry "nowhere"/],
    [["--agents", ","], /--agents is empty/],
    [["--agents", "base:1", "--chain", "base"], /--chain applies only to --all/],
    [["--agents", "base:1", "--audit", "0.1"], /--audit applies only to --all/],
    [["--agents", "base:1", "--seed", "1"], /--seed applies only to --all/],
    [["--chain", "atlantis"], /--chain: Unknown chain "atlantis"/],
    [["--chain", "solana"], /--chain solana: not an EVM chain/],
    [["--audit", "1.5"], /--audit must be a fraction from 0 to 1/],
    [["--audit", "150%"], /--audit must be a fraction from 0 to 1/],
    [["--audit", "lots"], /--audit must be a fraction from 0 to 1/],
    [["--seed", "1.5"], /--seed must be an integer >= 0, got "1.5"/],
    [["--tier-encoding", "a,b,c,d"], /--tier-encoding: Encoding table "tiers" must list each of/],
    [["--sybil-encoding", "none,low"], /--sybil-encoding: Encoding table "sybilSeverities" must list each of/],
    [["--rows", "many"], /--rows must be an integer >= 0 or "all", got "many"/],
    [["--json", "-", "--markdown", "-"], /both ask for stdout/],
    [["--json", "r.out", "--markdown", "r.out"], /--json and --markdown name the same file "r.out"/],
    [["--json", " "], /--json needs a file name or "-"/],
  ])("%j → %s", (argv, message) => {
    refuses(argv, message);
  });
});

describe("parseDriftArgs: --events-from", () => {
  const env = {};
  it("replays oracle events from the given block with --all, and refuses it with --agents", () => {
    const parsed = parseDriftArgs(["--rpc", "http://127.0.0.1:8545", "--api", "http://127.0.0.1:8787", "--all", "--events-from", "1200"], { env });
    expect(parsed.kind === "run" && parsed.settings.scope).toMatchObject({ kind: "all", eventsFromBlock: 1200n });
    const remote = parseDriftArgs(["--rpc", "http://127.0.0.1:8545", "--api", "http://127.0.0.1:8787", "--all"], { env });
    expect(remote.kind === "run" && remote.settings.scope.kind === "all" && remote.settings.scope.eventsFromBlock).toBeUndefined();
    expect(() => parseDriftArgs(["--rpc", "http://x.test", "--api", "http://y.test", "--agents", "base:1", "--events-from", "5"], { env })).toThrow(
      "--events-from applies only to --all",
    );
    expect(() => parseDriftArgs(["--events-from", "-3"], { env })).toThrow(InvalidArgumentError);
  });
});
