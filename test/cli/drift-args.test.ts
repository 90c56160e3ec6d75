import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type DriftArgs, type DriftRunArgs, parseDriftArgs } from "../../src/cli/drift-args";
import { DEFAULT_TRUST_ENCODING } from "../../src/config/encodings";
import { InvalidArgumentError } from "../../src/errors";

const NOW = new Date("2026-11-22T12:00:00Z");
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
  it("with --demo alone, runs the embedded default over every listed agent with the documented defaults", () => {
    const args = run(["--demo"]);
    expect(args.embedded).toEqual({ chain: true, api: true });
    expect(args.endpoints).toEqual({});
    expect(args.settings).toEqual({
      scope: { kind: "all", auditConfidence: 0.99, auditLieRate: 0.01, eventsFromBlock: "auto" },
      threshold: 51,
      maxAgeSeconds: 36 * 3600,
      concurrency: 8,
      encoding: DEFAULT_TRUST_ENCODING,
      maxErrors: { kind: "percent", value: 1 },
    });
    expect(args.output).toEqual({ tableRows: 50, wide: false, quiet: false, ci: false });
  });

  it("sets no audit seed without --seed (each run draws a random one), whatever the day", () => {
    for (const now of [NOW, new Date(NOW.getTime() + 86_400_000)]) {
      const args = parseDriftArgs(["--demo"], { env: {}, now: () => now });
      expect(args.kind === "run" && args.settings.scope.kind === "all" && "seed" in args.settings.scope).toBe(false);
    }
  });

  it("reads --state, --full and --max-duration", () => {
    const args = run([...REAL, "--all", "--state", " night.jsonl ", "--full", "--max-duration", "50m"]);
    expect(args.settings).toMatchObject({ state: "night.jsonl", full: true, maxDurationSeconds: 3000 });
    expect(run([...REAL, "--all", "--state", "s.jsonl"]).settings).not.toHaveProperty("full");
    expect(run(["--demo", "--max-duration", "1h30m"]).settings.maxDurationSeconds).toBe(5400);
  });

  it("sizes the audit by confidence (--audit-confidence, --audit-lie-rate; fractions or percentages)", () => {
    const scope = (argv: string[]) => run(["--demo", ...argv]).settings.scope;
    expect(scope(["--audit-confidence", "0.999"])).toMatchObject({ auditConfidence: 0.999, auditLieRate: 0.01 });
    expect(scope(["--audit-lie-rate", "0.5%"])).toMatchObject({ auditConfidence: 0.99, auditLieRate: 0.005 });
    expect(scope(["--audit-confidence", "95%", "--audit-lie-rate", "1"])).toMatchObject({ auditConfidence: 0.95, auditLieRate: 1 });
  });

  it("returns help for --help and -h, even with other flags", () => {
    expect(parse(["--help"])).toEqual({ kind: "help" });
    expect(parse(["--agents", "base:1", "-h"])).toEqual({ kind: "help" });
  });
});

describe("parseDriftArgs: every flag", () => {
  it("reads every flag into the settings, endpoints and output", () => {
    const args = run(
      [
        "--rpc",
        "wss://base.example/ws",
        "--oracle",
        "0xd5fdccd492bb5568bc7aeb1f1e888e0bba6276f4",
        "--api",
        "https://api.example/trust/",
        "--api-key",
        "k-123",
        "--issuer",
        "https://issuer.example/",
        "--jwks",
        "https://keys.example/jwks.json",
        "--agents",
        "base:12,bsc:7:olas",
        "--agents",
        "base:12:erc8004,ethereum:3",
        "--threshold",
        "75",
        "--gate",
        GATE.toLowerCase(),
        "--max-age",
        "1h30m",
        "--tier-encoding",
        "Established,developing,limited,flagged",
        "--sybil-encoding",
        "heavy,elevated,moderate,low,none",
        "--concurrency",
        "64",
        "--rate",
        "2.5",
        "--max-errors",
        "7",
        "--json",
        "out/report.json",
        "--markdown",
        "out/report.md",
        "--rows",
        "all",
        "--wide",
        "--timeout",
        "1m30s",
        "-q",
      ],
      { CI: "true" },
    );
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
          { chain: "base", chainId: 8453, agentId: 12n, registry: "erc8004" },
          { chain: "bnb", chainId: 56, agentId: 7n, registry: "olas" },
          { chain: "ethereum", chainId: 1, agentId: 3n, registry: "erc8004" },
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
      maxErrors: { kind: "count", value: 7 },
      timeoutMs: 90_000,
    });
    expect(args.output).toEqual({
      json: "out/report.json",
      markdown: "out/report.md",
      tableRows: Number.POSITIVE_INFINITY,
      wide: true,
      quiet: true,
      ci: true,
    });
  });

  it("reads --all with --chain (aliases resolved) and --seed", () => {
    const args = run([...REAL, "--all", "--chain", "bsc", "--seed", "42"]);
    expect(args.settings.scope).toEqual({
      kind: "all",
      chain: "bnb",
      auditConfidence: 0.99,
      auditLieRate: 0.01,
      seed: 42,
      eventsFromBlock: "auto",
    });
    expect(run([...REAL, "--all", "--seed", "0"]).settings.scope).toMatchObject({ seed: 0 });
  });

  it("with --gate and no --threshold, leaves the threshold to the gate's policy", () => {
    const args = run(["--demo", "--gate", GATE]);
    expect(args.settings.gate).toBe(GATE);
    expect(args.settings.threshold).toBeUndefined();
  });

  it("accepts the threshold bounds 0 and 100 and the concurrency bounds 1 and 64", () => {
    expect(run(["--demo", "--threshold", "0"]).settings.threshold).toBe(0);
    expect(run(["--demo", "--threshold", "100"]).settings.threshold).toBe(100);
    expect(run(["--demo", "--concurrency", "1"]).settings.concurrency).toBe(1);
  });

  it("reads --rows as a count, 0 included", () => {
    expect(run(["--demo", "--rows", "7"]).output.tableRows).toBe(7);
    expect(run(["--demo", "--rows", "0"]).output.tableRows).toBe(0);
  });

  it("with --demo, marks only the missing endpoint as embedded", () => {
    const rpcOnly = run(["--demo", "--rpc", "http://127.0.0.1:8545", "--all"]);
    expect(rpcOnly.embedded).toEqual({ chain: false, api: true });
    const apiOnly = run(["--demo", "--api", "http://127.0.0.1:8787", "--agents", "base:1"]);
    expect(apiOnly.embedded).toEqual({ chain: true, api: false });
  });

  it("accepts an explicit --agents list with --demo", () => {
    expect(run(["--demo", "--agents", "base:5"]).settings.scope).toEqual({
      kind: "list",
      agents: [{ chain: "base", chainId: 8453, agentId: 5n, registry: "erc8004" }],
    });
  });

  it("treats CI=false, CI=0 and an empty CI as not CI", () => {
    for (const value of ["false", "0", ""]) expect(run(["--demo"], { CI: value }).output.ci).toBe(false);
    expect(run(["--demo"], { CI: "1" }).output.ci).toBe(true);
  });
});

describe("parseDriftArgs: API key", () => {
  it("takes the key from TRUSTGATE_API_KEY when --api-key is not given", () => {
    expect(run(["--demo"], { TRUSTGATE_API_KEY: " env-key " }).settings.apiKey).toBe("env-key");
  });

  it("prefers --api-key over the environment", () => {
    expect(run(["--demo", "--api-key", "flag-key"], { TRUSTGATE_API_KEY: "env-key" }).settings.apiKey).toBe("flag-key");
  });

  it("ignores an empty environment variable and refuses an empty --api-key", () => {
    expect(run(["--demo"], { TRUSTGATE_API_KEY: "" }).settings).not.toHaveProperty("apiKey");
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
    expect(run(["--demo", "--jwks", path]).endpoints.jwks).toEqual({ keys: [key] });
    expect(run(["--demo", "--jwks", `file://${path}`]).endpoints.jwks).toEqual({ keys: [key] });
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

describe("parseDriftArgs: --max-errors", () => {
  const limit = (text: string) => run(["--demo", "--max-errors", text]).settings.maxErrors;

  it("reads a count or a percentage of the scanned agents, at both ends of their ranges", () => {
    expect(limit("10")).toEqual({ kind: "count", value: 10 });
    expect(limit("0")).toEqual({ kind: "count", value: 0 });
    expect(limit(" 12 ")).toEqual({ kind: "count", value: 12 });
    expect(limit("2.5%")).toEqual({ kind: "percent", value: 2.5 });
    expect(limit("0%")).toEqual({ kind: "percent", value: 0 });
    expect(limit("100%")).toEqual({ kind: "percent", value: 100 });
    expect(limit("100.000%")).toEqual({ kind: "percent", value: 100 });
    expect(limit("0.000001%")).toEqual({ kind: "percent", value: 0.000001 });
    expect(limit("5 %")).toEqual({ kind: "percent", value: 5 });
    expect(run(["--demo", "--max-errors=3%"]).settings.maxErrors).toEqual({ kind: "percent", value: 3 });
  });

  it.each([
    [
      "-1",
      /^--max-errors must be a count \(an integer >= 0, e\.g\. 10\) or a percentage of the scanned agents from 0% to 100% \(e\.g\. 2\.5%\), got "-1"$/,
    ],
    ["-1%", /got "-1%"$/],
    ["100.5%", /got "100\.5%" \(above 100%\)$/],
    ["101%", /got "101%" \(above 100%\)$/],
    ["1.5", /got "1\.5" \(a count is a whole number; for a percentage write 1\.5%\)$/],
    ["1e3", /got "1e3"$/],
    ["abc", /got "abc"$/],
    ["%", /got "%"$/],
    ["", /got ""$/],
    ["5%%", /got "5%%"$/],
    ["0x10", /got "0x10"$/],
    ["1.0000001%", /got "1\.0000001%" \(at most 6 decimals\)$/],
    ["99999999999999999999", /got "99999999999999999999" \(too large\)$/],
  ])("refuses --max-errors=%j", (text, message) => {
    refuses([`--max-errors=${text}`], message);
  });

  it("refuses a missing value, pointing at the = form for a negative one", () => {
    refuses(["--max-errors"], /Option --max-errors needs a value/);
    refuses(["--max-errors", "-5"], /Option --max-errors needs a value \(to give a value starting with "-", write --max-errors=-5\)/);
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
    [["--agents", "base:1", "--seed", "1"], /--seed applies only to --all/],
    [["--chain", "atlantis"], /--chain: Unknown chain "atlantis"/],
    [["--chain", "solana"], /--chain solana: not an EVM chain/],
    [["--seed", "1.5"], /--seed must be an integer >= 0, got "1.5"/],
    [["--agents", "base:1", "--state", "s.jsonl"], /--state applies only to --all/],
    [["--agents", "base:1", "--full", "--state", "s.jsonl"], /applies only to --all/],
    [["--audit", "0.1"], /Unknown option --audit \(did you mean --audit-confidence\?\)/],
    [["--verify-workers", "2"], /Unknown option --verify-workers/],
    [["--agents", "base:1", "--audit-confidence", "0.9"], /--audit-confidence applies only to --all/],
    [["--full"], /--full ignores the state file, so it needs --state <file>/],
    [["--state", " "], /--state needs a file name/],
    [["--max-duration", "0"], /--max-duration: Invalid duration "0": must be greater than zero/],
    [["--max-duration", "soon"], /--max-duration: Invalid duration "soon"/],
    [["--audit-confidence", "1"], /--audit-confidence must be a fraction above 0 and below 1/],
    [["--audit-confidence", "0"], /--audit-confidence must be a fraction above 0 and below 1/],
    [["--audit-lie-rate", "0"], /--audit-lie-rate must be a fraction above 0 and at most 1/],
    [["--audit-lie-rate", "120%"], /--audit-lie-rate must be a fraction above 0 and at most 1/],
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
  const REMOTE = ["--rpc", "http://127.0.0.1:8545", "--api", "http://127.0.0.1:8787", "--all"];
  const scopeOf = (argv: string[]) => {
    const parsed = parseDriftArgs(argv, { env });
    return parsed.kind === "run" && parsed.settings.scope.kind === "all" ? parsed.settings.scope : undefined;
  };
  it("replays oracle events from the given block with --all, and refuses it with --agents", () => {
    expect(scopeOf([...REMOTE, "--events-from", "1200"])).toMatchObject({ kind: "all", eventsFromBlock: 1200n });
    expect(() =>
      parseDriftArgs(["--rpc", "http://x.test", "--api", "http://y.test", "--agents", "base:1", "--events-from", "5"], { env }),
    ).toThrow("--events-from applies only to --all");
    expect(() => parseDriftArgs(["--events-from", "-3"], { env })).toThrow(InvalidArgumentError);
    expect(() => parseDriftArgs(["--events-from", "soon"], { env })).toThrow(
      '--events-from must be a block number, "auto" or "off", got "soon"',
    );
  });

  it("defaults to auto with --all, against a real chain too (delisted records must not vanish silently); off turns it off", () => {
    expect(scopeOf(REMOTE)!.eventsFromBlock).toBe("auto");
    expect(scopeOf(["--demo"])!.eventsFromBlock).toBe("auto");
    expect(scopeOf([...REMOTE, "--events-from", "AUTO"])!.eventsFromBlock).toBe("auto");
    expect(scopeOf([...REMOTE, "--events-from", "off"])!.eventsFromBlock).toBeUndefined();
  });
});

describe("parseDriftArgs: --timeout and --wide", () => {
  const timeout = (text: string) => run(["--demo", "--timeout", text]).settings.timeoutMs;
  it("reads a duration or milliseconds into timeoutMs; absent by default", () => {
    expect(run(["--demo"]).settings.timeoutMs).toBeUndefined();
    expect(timeout("10s")).toBe(10_000);
    expect(timeout("2m")).toBe(120_000);
    expect(timeout("45")).toBe(45_000);
    expect(timeout("500ms")).toBe(500);
    expect(timeout("1h")).toBe(3_600_000);
  });

  it.each([["0ms"], ["0"], ["2h"], ["fast"], ["-5s"]])("refuses --timeout %s in one line", (text) => {
    refuses(["--timeout", text], /--timeout/);
  });

  it("--wide asks for every column", () => {
    expect(run(["--demo", "--wide"]).output.wide).toBe(true);
    expect(run(["--demo"]).output.wide).toBe(false);
  });
});

describe("parseDriftArgs: --attested-oracle", () => {
  it("is an endpoint, checksummed, absent by default; not a setting", () => {
    const args = run([...REAL, "--agents", "base:1", "--attested-oracle", GATE.toLowerCase()]);
    expect(args.endpoints.attestedOracle).toBe(GATE);
    expect(args.settings).not.toHaveProperty("attestedOracle");
    expect(run([...REAL, "--agents", "base:1"]).endpoints).not.toHaveProperty("attestedOracle");
  });

  it.each([["0x1234"], ["oracle"], [""]])("refuses --attested-oracle %j in one line naming the flag", (text) => {
    refuses([...REAL, "--agents", "base:1", "--attested-oracle", text], /--attested-oracle/);
  });
});

describe("parseDriftArgs: --refresh", () => {
  const SCAN = [...REAL, "--agents", "base:1", "--attested-oracle", GATE];

  it("reads --refresh with the refresh's options by their names (the plan's staleness is the scan's --max-age)", () => {
    const args = run([...SCAN, "--refresh", "--min-change", "0", "--gas-limit", "400000", "--confirm-mainnet", "--refresh-json", "r.json"]);
    expect(args.refresh).toEqual({
      plan: { minChange: 0, gasLimit: 400_000 },
      dryRun: false,
      confirmMainnet: true,
      json: "r.json",
      sending: { journal: "r.json.refresh-journal.json" },
      key: {},
    });
    expect(run([...SCAN, "--refresh", "--dry-run"]).refresh).toEqual({
      plan: {},
      dryRun: true,
      confirmMainnet: false,
      sending: { journal: "trustgate-drift.refresh-journal.json" },
      key: {},
    });
    const sending = run([
      ...REAL,
      "--all",
      "--attested-oracle",
      GATE,
      "--state",
      "night.jsonl",
      "--refresh",
      "--max-fee-per-gas",
      "2gwei",
      "--budget",
      "5000000gas",
      "--confirmations",
      "2",
      "--keystore",
      "k.json",
    ]).refresh;
    expect(sending?.sending).toEqual({
      maxFeePerGas: 2_000_000_000n,
      budget: { unit: "gas", amount: 5_000_000n },
      confirmations: 2,
      journal: "night.jsonl.refresh-journal.json",
    });
    expect(sending?.key).toEqual({ keystore: "k.json" });
    refuses([...SCAN, "--budget", "1eth"], /^--budget is an option of the refresh after the scan: give --refresh$/);
    expect(run(SCAN).refresh).toBeUndefined();
  });

  it("refuses --refresh without --attested-oracle, a refresh option without --refresh, and two outputs on stdout", () => {
    refuses(
      [...REAL, "--agents", "base:1", "--refresh"],
      /^--refresh pushes to the attested oracle the scan reads: give --attested-oracle <address>$/,
    );
    refuses([...SCAN, "--min-change", "0"], /^--min-change is an option of the refresh after the scan: give --refresh$/);
    refuses([...SCAN, "--dry-run"], /^--dry-run is an option of the refresh after the scan: give --refresh$/);
    refuses([...SCAN, "--refresh-json", "r.json"], /^--refresh-json writes the report of --refresh: give --refresh$/);
    refuses([...SCAN, "--refresh", "--refresh-json", "-", "--json", "-"], /^--refresh-json - and --json - both ask for stdout/);
    refuses([...SCAN, "--refresh", "--gas-limit", "16777216"], /^--gas-limit must be an integer from 140000 to 16777215/);
  });
});
