// `trustgate doctor` on the command line: its help, its usage errors (exit 2), the table and the JSON form (to
// stdout, to a file), the exit codes (0 all hold, 3 something differs and wins over 4, 4 something could not be
// checked), the harness loaded only for onchain-submit (and Hardhat's absence said), and no secret anywhere: an API
// key given by the environment, echoed by the service in an answer and in a JWS header, and the key in an RPC URL's
// path never appear in stdout, stderr or the JSON file.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { DOCTOR_NEEDS_HARDHAT, type RunDoctorFunction } from "../../src/cli/doctor-command";
import type { HarnessLoader } from "../../src/cli/harness-loader";
import { DOCTOR_HELP, MAIN_HELP } from "../../src/cli/help";
import { main } from "../../src/cli/main";
import { type CheckResult, type DoctorReport, summarizeChecks } from "../../src/doctor/report";
import { startTrustService, type TrustServiceParameters } from "../../src/harness/service/index";
import { unusedPort } from "../support/scripted-server";
import { MCP_SERVER, recentPopulation } from "./support";

/** The harness from the sources (the package entry resolves to `dist/`, which tests do not build). */
const harnessLoader: HarnessLoader = { hardhatInstalled: () => true, importHarness: () => import("../../src/harness/index") };

function io(env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: {
      stdout: { write: (chunk: string) => out.push(chunk) },
      stderr: { write: (chunk: string) => err.push(chunk) },
      env,
      isTTY: false,
    },
    stdout: () => out.join(""),
    stderr: () => err.join(""),
  };
}

/** Runs `trustgate doctor <argv>` against a local service started with `options`. */
async function doctorCli(
  argv: (url: string) => string[],
  options: TrustServiceParameters = {},
  env: Record<string, string> = {},
  loader: HarnessLoader = harnessLoader,
) {
  const service = await startTrustService({ population: recentPopulation(), ...options });
  const h = io(env);
  try {
    const code = await main(["doctor", ...argv(service.url)], h.io, { doctor: { harnessLoader: loader } });
    return { code, stdout: h.stdout(), stderr: h.stderr(), url: service.url };
  } finally {
    await service.close();
  }
}

/** A report whose checks have the given statuses (for the exit codes, without a service). */
function reportOf(checks: readonly Pick<CheckResult, "id" | "status">[]): DoctorReport {
  const full = checks.map((c) => ({ ...c, summary: `${c.id} ${c.status}` }));
  return {
    tool: "trustgate doctor",
    version: "0.0.0",
    generatedAt: "2026-11-26T00:00:00.000Z",
    target: { api: "http://127.0.0.1:9", issuer: "http://127.0.0.1:9", jwks: "file", apiKey: false },
    requests: 0,
    summary: summarizeChecks(full),
    checks: full,
  };
}

describe("trustgate doctor: help and usage", () => {
  it("prints its help with --help, -h and trustgate help doctor, as docs/doctor.md shows it; the main help names it", async () => {
    for (const argv of [
      ["doctor", "--help"],
      ["doctor", "-h"],
      ["help", "doctor"],
    ]) {
      const h = io();
      expect(await main(argv, h.io)).toBe(0);
      expect(h.stdout()).toBe(DOCTOR_HELP);
    }
    expect(MAIN_HELP).toMatch(/^ {2}doctor {7}Check the kit's assumptions/m);
    for (const id of [
      "sig-bytes",
      "jws-header",
      "jws-payload",
      "jwks-kids",
      "rate-limit-headers",
      "fields:<endpoint>",
      "onchain-encodings",
      "onchain-p256",
      "onchain-submit",
      "time-forms",
    ]) {
      expect(DOCTOR_HELP).toContain(`  ${id} `);
    }
    const doc = readFileSync(join(__dirname, "../../docs/doctor.md"), "utf8");
    const start = doc.indexOf("```\nUsage: trustgate doctor") + 4;
    expect(start, "docs/doctor.md shows the help").toBeGreaterThan(4);
    expect(doc.slice(start, doc.indexOf("```\n", start))).toBe(DOCTOR_HELP);
    expect(DOCTOR_HELP).toMatch(/Exit codes:\n {2}0 {2}every check holds\n {2}3 {2}at least one check differs \(wins over 4\)\n {2}4 /);
  });

  it.each([
    [[], "trustgate: Give the trust service to check with --api <url> (for example --api https://rnwy.com)\n"],
    [["--api", "http://127.0.0.1:2", "--rcp", "http://127.0.0.1:3"], "trustgate: Unknown option --rcp (did you mean --rpc?)\n"],
    [["--api", "http://user:pw@127.0.0.1:2"], /^trustgate: Invalid --api URL "http:\/\/127\.0\.0\.1:2": it contains credentials/],
    [
      ["--api", "http://127.0.0.1:2", "--oracle", "0x0000000000000000000000000000000000000001"],
      "trustgate: --oracle names an oracle on the chain of --rpc: give --rpc too\n",
    ],
    [
      ["--api", "http://127.0.0.1:2", "--agents", "base:1,base:2,base:3"],
      "trustgate: --agents takes at most 2 agents (one trust-check each), got 3\n",
    ],
    [["--api", "http://127.0.0.1:2", "--agents", "solana:1"], /^trustgate: --agents: solana is not an EVM chain/],
    [["--api", "http://127.0.0.1:2", "--mcp-server", "nope"], /^trustgate: --mcp-server must be of the form <owner>\/<name>/],
    [["--api", "http://127.0.0.1:2", "--tier-encoding", "a,b"], /^trustgate: --tier-encoding: Encoding table "tiers" must list each of/],
    [["--api", "http://127.0.0.1:2", "--timeout", "2h"], 'trustgate: --timeout must be from 1ms to 1h, got "2h"\n'],
    [
      ["--api", "http://127.0.0.1:2", "--json", "/no/such/dir/report.json"],
      'trustgate: --json /no/such/dir/report.json: directory "/no/such/dir" does not exist\n',
    ],
  ])("refuses %j with exit 2 and one line", async (argv, message) => {
    const run = vi.fn<RunDoctorFunction>();
    const h = io();
    expect(await main(["doctor", ...argv], h.io, { doctor: { runDoctor: run } })).toBe(2);
    if (typeof message === "string") expect(h.stderr()).toBe(message);
    else expect(h.stderr()).toMatch(message);
    expect(h.stdout()).toBe("");
    expect(run).not.toHaveBeenCalled();
  });

  it("never echoes an --api-key given without a value", async () => {
    const h = io();
    expect(await main(["doctor", "--api", "http://127.0.0.1:2", "--api-key"], h.io)).toBe(2);
    expect(h.stderr()).toBe("trustgate: Option --api-key needs a value (see trustgate doctor --help)\n");
  });
});

describe("trustgate doctor: exit codes", () => {
  it.each([
    [[{ id: "sig-bytes", status: "holds" }], 0],
    [
      [
        { id: "sig-bytes", status: "holds" },
        { id: "onchain-submit", status: "could-not-check" },
      ],
      4,
    ],
    [
      [
        { id: "sig-bytes", status: "differs" },
        { id: "onchain-submit", status: "holds" },
      ],
      3,
    ],
    [
      [
        { id: "sig-bytes", status: "differs" },
        { id: "onchain-submit", status: "could-not-check" },
      ],
      3,
    ],
  ] as const)("%j exits %i", async (checks, code) => {
    const run = vi.fn<RunDoctorFunction>(async () => reportOf(checks));
    const h = io();
    expect(await main(["doctor", "--api", "http://127.0.0.1:2"], h.io, { doctor: { runDoctor: run } })).toBe(code);
    expect(h.stdout()).toMatch(new RegExp(`: exit ${code}\\n$`));
  });

  it("passes the configuration it parsed, the API key from the environment included", async () => {
    const run = vi.fn<RunDoctorFunction>(async () => reportOf([]));
    const h = io({ TRUSTGATE_API_KEY: "env-key-0001" });
    await main(["doctor", "--api", "http://127.0.0.1:2/", "--rpc", "http://127.0.0.1:3", "--agents", "base:7", "--timeout", "5s"], h.io, {
      doctor: { runDoctor: run },
    });
    expect(run.mock.calls[0]![0]).toMatchObject({
      apiUrl: "http://127.0.0.1:2",
      apiKey: "env-key-0001",
      rpcUrl: "http://127.0.0.1:3",
      agents: [{ chain: "base", chainId: 8453, agentId: 7n, registry: "erc8004" }],
      timeoutMs: 5000,
    });
  });
});

describe("trustgate doctor against the local service", () => {
  it("prints the table on stdout and exits 4 when the only gap is the chain it was not given", async () => {
    const { code, stdout, stderr } = await doctorCli((url) => ["--api", url, "--mcp-server", MCP_SERVER]);
    expect(stderr).toBe("");
    expect(code).toBe(4);
    const lines = stdout.split("\n");
    expect(lines[0]).toMatch(
      /^trustgate doctor \S+: http:\/\/127\.0\.0\.1:\d+ \(issuer http:\/\/127\.0\.0\.1:\d+, keys http:\/\/127\.0\.0\.1:\d+\/\.well-known\/jwks\.json\); no chain \(--rpc\); \d+ requests$/,
    );
    expect(lines[2]).toMatch(/^CHECK +RESULT +WHAT IT SAW$/);
    expect(stdout).toMatch(/^sig-bytes +holds +sig covers JSON\.stringify\(signed\)/m);
    expect(stdout).toMatch(/^onchain-encodings +could not check +needs a chain/m);
    expect(stdout).toMatch(/^onchain-p256 +could not check +needs a chain: give --rpc$/m);
    expect(stdout).toMatch(/^onchain-submit +holds +submitJwsAttestation accepted/m);
    expect(stdout).toMatch(/^time-forms +holds +issuedAt \+00:00, 3 fraction digits, verifiedAt Z, 3 fraction digits,/m);
    expect(stdout.endsWith("20 hold, 0 differ, 2 could not be checked: exit 4\n")).toBe(true);
  });

  it("writes the JSON form to stdout with --json - (the table to stderr), and to a file with --json <file>", async () => {
    const piped = await doctorCli((url) => ["--api", url, "--mcp-server", MCP_SERVER, "--json", "-"], { rateLimit: false });
    expect(piped.code).toBe(3);
    const report = JSON.parse(piped.stdout) as DoctorReport;
    expect(Object.keys(report)).toEqual(["tool", "version", "generatedAt", "target", "requests", "summary", "checks"]);
    expect(report.tool).toBe("trustgate doctor");
    expect(report.target).toEqual({ api: piped.url, issuer: piped.url, jwks: `${piped.url}/.well-known/jwks.json`, apiKey: false });
    expect(report.summary).toEqual({ holds: 19, differs: 1, couldNotCheck: 2, exitCode: 3 });
    expect(report.checks.map((c) => c.id)).toEqual([
      "sig-bytes",
      "jws-header",
      "jws-payload",
      "jwks-kids",
      "rate-limit-headers",
      ...["agents", "trust-check", "explorer", "explorer-profile", "stats", "compare", "reviewer-analysis", "reviewer", "entity"].map(
        (e) => `fields:${e}`,
      ),
      ...["mcp-attestation", "risk-terms", "address-ages", "wallet-score"].map((e) => `fields:${e}`),
      "onchain-encodings",
      "onchain-p256",
      "onchain-submit",
      "time-forms",
    ]);
    for (const check of report.checks) {
      expect(Object.keys(check).filter((k) => k !== "observed")).toEqual(["id", "status", "summary"]);
      expect(["holds", "differs", "could-not-check"]).toContain(check.status);
    }
    const rate = report.checks.find((c) => c.id === "rate-limit-headers")!;
    expect(rate).toMatchObject({ status: "differs", observed: { assumedPerMinute: { general: 30, riskTerms: 5 }, apiKey: false } });
    expect(piped.stderr).toMatch(/^rate-limit-headers +DIFFERS +the service announces no rate limit/m);

    const dir = mkdtempSync(join(tmpdir(), "doctor-"));
    const file = join(dir, "doctor.json");
    const written = await doctorCli((url) => ["--api", url, "--mcp-server", MCP_SERVER, "--json", file]);
    expect(written.code).toBe(4);
    expect((JSON.parse(readFileSync(file, "utf8")) as DoctorReport).summary.exitCode).toBe(4);
    expect(written.stdout).toMatch(/^CHECK +RESULT +WHAT IT SAW$/m);
  });

  it("says in one line that an unreachable service could not be reached, and exits 2, as trustgate drift does", async () => {
    const refused = `http://127.0.0.1:${await unusedPort()}`;
    const h = io();
    const code = await main(["doctor", "--api", refused, "--timeout", "2s", "--json", "-"], h.io, { doctor: { harnessLoader } });
    expect(code).toBe(2);
    expect(h.stdout()).toBe("");
    expect(h.stderr()).toBe(
      `trustgate: Cannot reach the service at ${refused} (fetch failed (connect ECONNREFUSED ${refused.slice(7)}))\n`,
    );
    // drift says the same of the same service: one line, exit 2.
    const d = io();
    expect(await main(["drift", "--rpc", refused, "--api", refused, "--agents", "base:1"], d.io)).toBe(2);
    expect(d.stderr()).toMatch(/^trustgate: [^\n]*ECONNREFUSED[^\n]*\n$/);
  });

  it("says what to install when Hardhat is missing, without loading the harness", async () => {
    const importHarness = vi.fn(async () => ({}));
    const { code, stdout } = await doctorCli(
      (url) => ["--api", url, "--mcp-server", MCP_SERVER, "--json", "-"],
      {},
      {},
      {
        hardhatInstalled: () => false,
        importHarness,
      },
    );
    expect(code).toBe(4);
    const submit = (JSON.parse(stdout) as DoctorReport).checks.find((c) => c.id === "onchain-submit")!;
    expect(submit).toEqual({ id: "onchain-submit", status: "could-not-check", summary: DOCTOR_NEEDS_HARDHAT });
    expect(DOCTOR_NEEDS_HARDHAT).toMatch(/npm install --save-dev hardhat@\d/);
    expect(importHarness).not.toHaveBeenCalled();
  });
});

describe("trustgate doctor: no secret in any output", () => {
  it("hides the API key the service echoes and the key in the RPC URL's path", async () => {
    const key = "tg_live_9f8e7d6c5b4a39281706f5e4";
    const rpcKey = "a1b2c3d4e5f60718293a4b5c6d7e8f90";
    const dir = mkdtempSync(join(tmpdir(), "doctor-"));
    const file = join(dir, "doctor.json");
    const { code, stdout, stderr } = await doctorCli(
      (url) => ["--api", url, "--mcp-server", MCP_SERVER, "--rpc", `http://127.0.0.1:9/v2/${rpcKey}`, "--timeout", "2s", "--json", file],
      {
        deviations: {
          // The service echoes the key: as a member name, inside a value, and in the JWS header it signs.
          bodies: { "/api/stats": (body) => ({ ...body, [key]: `Bearer ${key}` }) },
          trustSigning: { jwsHeader: { alg: "ES256", kid: "rnwy-trust-v2", note: `for ${key}` } },
        },
      },
      { TRUSTGATE_API_KEY: key },
    );
    const json = readFileSync(file, "utf8");
    expect(code).toBe(3);
    for (const text of [stdout, stderr, json]) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(rpcKey);
      expect(text).not.toContain(key.slice(0, 12));
    }
    const report = JSON.parse(json) as DoctorReport;
    expect(report.target).toMatchObject({ apiKey: true, rpc: "http://127.0.0.1:9/v2/…" });
    expect(report.checks.find((c) => c.id === "fields:stats")!.summary).toBe("unknown ***");
    expect(report.checks.find((c) => c.id === "jws-header")!.summary).toMatch(/"note":"for \*\*\*"/);
    expect(report.checks.find((c) => c.id === "onchain-encodings")!.status).toBe("could-not-check");
    expect(report.checks.find((c) => c.id === "rate-limit-headers")!.summary).toMatch(/announced 300\/min, risk-terms 60\/min, as assumed/);
  });
});
