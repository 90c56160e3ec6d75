// `trustgate refresh` through the real command line, in process: the plan a dry run prints from a drift JSON report
// (table and JSON), and the usage errors (exit 2) that stop a run before anything is read or sent.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RefreshReport } from "../../src/cli/refresh-command";
import { main } from "../../src/cli/main";
import { capturedIo } from "../support/captured-io";
import type { DriftRow } from "../../src/drift/types";
import { parseRefreshArgs } from "../../src/cli/refresh-args";
import { planRefresh } from "../../src/refresh/plan";
import { failToPass, GENERATED_AT, REFRESH_POSSIBLE, report, row } from "./report-fixture";

const NOW = new Date(GENERATED_AT);
const refreshable = REFRESH_POSSIBLE;
const rows: DriftRow[] = [
  { ...failToPass("7"), refresh: refreshable },
  row({ agentId: "8", status: "missing-onchain", onchain: null, scoreDelta: null, refresh: refreshable }),
  row({
    agentId: "9",
    status: "drifted",
    scoreDelta: 2,
    refresh: { ...refreshable, possible: false, blocker: "not-newer", reason: "not newer" },
  }),
  row({ agentId: "10" }),
];
const dir = mkdtempSync(join(tmpdir(), "trustgate-refresh-"));
const reportFile = join(dir, "report.json");
writeFileSync(reportFile, JSON.stringify(report(rows)));
const watchFile = join(dir, "agents.txt");
writeFileSync(watchFile, "base:1\n");
const listingFile = join(dir, "leaked-records.json");
writeFileSync(
  listingFile,
  JSON.stringify({
    kid: "rnwy-trust-v2",
    oracle: "0x000000000000000000000000000000000000bEEF",
    chainId: 31337,
    records: [{ agent: "base:1:erc8004" }],
  }),
);

async function refresh(argv: string[]) {
  const io = capturedIo();
  let sent = 0;
  const code = await main(["refresh", ...argv], io.io, {
    now: () => NOW,
    refresh: {
      send: () => {
        sent++;
        return Promise.resolve({ exitCode: 0, text: "", json: null });
      },
    },
  });
  return { code, stdout: io.stdout(), stderr: io.stderr(), sent };
}

describe("trustgate refresh --dry-run", () => {
  it("prints the plan (agents, reasons, batches, estimated gas), sends nothing and exits 0", async () => {
    const { code, stdout, sent } = await refresh(["--from", reportFile, "--dry-run"]);
    expect(code).toBe(0);
    expect(sent).toBe(0);
    const lines = stdout.split("\n");
    expect(lines[0]).toBe(
      "Refresh plan from the drift report of 2026-11-22T12:00:00.000Z (chain 8453, block 123456); attested oracle none named (kids not checked by the drift run)",
    );
    expect(lines[1]).toBe("Rules: a decision flip, a missing record, a record older than 1d 12h, a score move of more than 5");
    expect(lines.slice(2, 5)).toEqual([
      "AGENT           STATUS           REASONS                      BATCH  EST. GAS",
      "base:7:erc8004  drifted          decision-flip, score-change      0    70,000",
      "base:8:erc8004  missing-onchain  missing                          0    90,000",
    ]);
    expect(lines.slice(5)).toEqual([
      "Due: 2; skipped: 1 (not-newer 1); in sync: 1",
      "Batches: 1 (2 attestations), estimated gas 210,000 (at most 8,000,000 a batch)",
      "Dry run: nothing sent.",
      "",
    ]);
  });

  it("writes the plan as JSON, equal to the library's plan under the same rules, with the table on stderr for --json -", async () => {
    const { code, stdout, stderr } = await refresh([
      "--from",
      reportFile,
      "--dry-run",
      "--json",
      "-",
      "--min-change",
      "1",
      "--max-age",
      "2h",
    ]);
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as RefreshReport;
    expect(json).toEqual({
      version: 1,
      mode: "dry-run",
      source: { kind: "report", notes: [] },
      plan: JSON.parse(JSON.stringify(planRefresh(report(rows), { now: NOW, minChange: 1, maxAgeSeconds: 7200 }))),
      exitCode: 0,
    });
    expect(json.plan.due.map((entry) => [entry.agent, entry.reasons])).toEqual([
      ["base:7:erc8004", ["decision-flip", "stale", "score-change"]],
      ["base:8:erc8004", ["missing"]],
    ]);
    expect(stderr).toContain("Dry run: nothing sent.");
  });

  it("writes the JSON to the file --json names", async () => {
    const out = join(dir, "plan.json");
    expect((await refresh(["--from", reportFile, "--dry-run", "--json", out])).code).toBe(0);
    expect((JSON.parse(readFileSync(out, "utf8")) as RefreshReport).plan.totals.due).toBe(2);
  });
});

describe("trustgate refresh: usage errors exit 2 before anything is sent", () => {
  it.each([
    [[], "Say what to push: --from <report.json> (trustgate drift --json writes it), --watch <file>, --state <file> or --gate <address>"],
    [
      ["--from", reportFile, "--watch", "agents.txt", "--dry-run"],
      "--from and --watch are each a source of what to push: give one of them",
    ],
    [
      ["--state", "s.jsonl", "--gate", "0x000000000000000000000000000000000000dEaD", "--dry-run"],
      "--state and --gate are each a source of what to push: give one of them",
    ],
    [["--watch", "agents.txt", "--dry-run"], "--watch runs a fresh drift over its agents, so it needs --rpc <url> and --api <url>"],
    [
      ["--watch", watchFile, "--rpc", "http://127.0.0.1:9", "--api", "http://127.0.0.1:9"],
      "--watch reads and pushes to an attested oracle: give it with --attested-oracle <address>",
    ],
    [
      [
        "--watch",
        listingFile,
        "--attested-oracle",
        "0x000000000000000000000000000000000000dEaD",
        "--rpc",
        "http://127.0.0.1:9",
        "--api",
        "http://127.0.0.1:9",
      ],
      `--watch ${listingFile} lists the records of 0x000000000000000000000000000000000000bEEF, not --attested-oracle 0x000000000000000000000000000000000000dEaD`,
    ],
    [
      ["--from", reportFile, "--dry-run", "--accept-kid", "rnwy trust"],
      '--accept-kid must be a key id (letters, digits and ._:-, as the JWKS names it), got "rnwy trust"',
    ],
    [
      ["--from", reportFile, "--dry-run", "--rate", "60"],
      "--rate limits the fresh drift run of --watch, --state or --gate; --from runs none",
    ],
    [["--from", reportFile, "--dry-run", "--threshold", "60"], "--threshold goes with --watch"],
    [["--state", "s.jsonl", "--dry-run", "--events-from", "0"], "--events-from says where --gate replays its oracles' events"],
    [
      [
        "--gate",
        "0x000000000000000000000000000000000000dEaD",
        "--attested-oracle",
        "0x000000000000000000000000000000000000dEaD",
        "--dry-run",
      ],
      "--gate and --attested-oracle exclude each other",
    ],
    [["--from", reportFile], "A refresh that sends needs --rpc <url> and --api <url>"],
    [["--from", reportFile, "--dry-run", "--gas-limit", "16777216"], "--gas-limit must be an integer from 140000 to 16777215"],
    [["--from", reportFile, "--dry-run", "--min-change", "101"], '--min-change must be an integer from 0 to 100, got "101"'],
    [["--from", join(dir, "absent.json"), "--dry-run"], `--from ${join(dir, "absent.json")}: cannot read the drift report`],
    [
      ["--from", reportFile, "--dry-run", "--budget", "1"],
      '--budget must be an amount above 0 with its unit: ether (0.01eth, 5gwei, 100wei) or gas (5000000gas), got "1"',
    ],
    [["--from", reportFile, "--dry-run", "--budget", "1.5gas"], "--budget must be an amount above 0 with its unit"],
    [
      ["--from", reportFile, "--dry-run", "--max-fee-per-gas", "2"],
      '--max-fee-per-gas must be a fee per gas above 0 with its unit, like 2gwei or 1500000000wei, got "2"',
    ],
    [["--from", reportFile, "--dry-run", "--max-fee-per-gas", "0.5wei"], "--max-fee-per-gas must be a fee per gas above 0"],
    [["--from", reportFile, "--dry-run", "--confirmations", "0"], "--confirmations must be an integer from 1 to 1000"],
    [["--from", reportFile, "--dry-run", "--frobnicate"], "Unknown option"],
  ])("%j", async (argv, message) => {
    const { code, stderr, sent } = await refresh(argv);
    expect(code).toBe(2);
    expect(sent).toBe(0);
    expect(stderr).toContain(message);
  });

  it("a file that is not a drift report is named with the field it lacks", async () => {
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ version: 1 }));
    const { code, stderr } = await refresh(["--from", bad, "--dry-run"]);
    expect(code).toBe(2);
    expect(stderr).toContain(`--from ${bad} is not a drift JSON report the refresh can read: generatedAt:`);
  });

  it("prints its help with the push rules' options, and is listed in trustgate --help", async () => {
    const { code, stdout } = await refresh(["--help"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^Usage: trustgate refresh <source> \[options\]\n {2}<source>: --from <report.json>, --watch <file>, --state <file> or --gate <address>\n/,
    );
    for (const option of [
      "--from <file>",
      "--watch <file>",
      "--state <file>",
      "--gate <address>",
      "--max-age <duration>",
      "--min-change <points>",
      "--gas-limit <gas>",
      "--dry-run",
      "--confirm-mainnet",
    ]) {
      expect(stdout).toContain(option);
    }
    const io = capturedIo();
    await main(["--help"], io.io);
    expect(io.stdout()).toContain("  refresh      Push fresh signed attestations");
  });
});

describe("parseRefreshArgs: fees, budget, replacement, confirmations and journal", () => {
  const where = ["--rpc", "http://127.0.0.1:8545", "--api", "http://127.0.0.1:8080"];

  it("reads the ceiling in gwei or wei, the budget in ether or gas, and the journal next to the report by default", () => {
    const args = parseRefreshArgs(["--from", reportFile, ...where, "--max-fee-per-gas", "1.5gwei", "--budget", "0.01eth"]);
    expect(args.kind === "run" && args.sending).toEqual({
      maxFeePerGas: 1_500_000_000n,
      budget: { unit: "wei", amount: 10n ** 16n },
      journal: `${reportFile}.refresh-journal.json`,
    });
    const gas = parseRefreshArgs([
      "--from",
      reportFile,
      ...where,
      "--max-fee-per-gas",
      "100wei",
      "--budget",
      "5000000gas",
      "--replace-after",
      "2m",
      "--confirmations",
      "3",
      "--journal",
      "j.json",
    ]);
    expect(gas.kind === "run" && gas.sending).toEqual({
      maxFeePerGas: 100n,
      budget: { unit: "gas", amount: 5_000_000n },
      replaceAfterSeconds: 120,
      confirmations: 3,
      journal: "j.json",
    });
  });

  it("says in the help what the budget charges, where the journal is, and exit code 4", async () => {
    const { stdout } = await refresh(["--help"]);
    const help = stdout.replace(/\s+/g, " ");
    expect(help).toContain("charged is gas used × effective price of what was sent");
    expect(help).toContain(
      "(default: beside the source file, <file>.refresh-journal.json; for --gate, refresh-<address>.refresh-journal.json here)",
    );
    expect(help).toContain("4 the run stopped short: the fee ceiling (--max-fee-per-gas) or the budget (--budget) stopped it");
    expect(help).toContain("KEYSTORE_PASSWORD");
  });
});

describe("trustgate refresh: rows it could not bring in line", () => {
  it("exits 3 after sending when a row out of line had no attestation that verified, and names it; a row the service holds none for does not count", async () => {
    const file = join(dir, "unverified.json");
    const unverifiedRows: DriftRow[] = [
      row({ agentId: "8", status: "missing-onchain", onchain: null, scoreDelta: null, refresh: refreshable }),
      row({ agentId: "11", status: "invalid-attestation", refresh: null }),
      row({ agentId: "12", status: "missing-attestation", refresh: null }),
    ];
    writeFileSync(file, JSON.stringify(report(unverifiedRows)));
    const endpoints = ["--rpc", "http://127.0.0.1:9", "--api", "http://127.0.0.1:9"];
    const { code, stdout, sent } = await refresh(["--from", file, ...endpoints]);
    expect(sent).toBe(1);
    expect(code).toBe(3);
    expect(stdout).toContain(
      "Not pushed: 1 agent out of line with no attestation that verified (base:11:erc8004 invalid-attestation): see the plan's skipped rows",
    );
    writeFileSync(file, JSON.stringify(report(unverifiedRows.filter((r) => r.agentId !== "11"))));
    expect((await refresh(["--from", file, ...endpoints])).code).toBe(0);
    expect((await refresh(["--from", file, "--dry-run"])).code).toBe(0);
  });
});
