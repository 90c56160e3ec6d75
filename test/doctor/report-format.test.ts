// The doctor's report without a service: exit codes by status, the table (fitted to a width, every cell passed
// through the sanitiser of outside text), and the secrets a configuration names (the API key, the key in an RPC URL's
// path; not a URL with nothing to hide).
import { describe, expect, it } from "vitest";
import { formatDoctorTable } from "../../src/doctor/format";
import { type CheckResult, DOCTOR_EXIT_CODES, type DoctorReport, doctorExitCode, summarizeChecks } from "../../src/doctor/report";
import { secretsOf, withoutSecrets } from "../../src/doctor/secrets";

function report(checks: CheckResult[]): DoctorReport {
  return {
    tool: "trustgate doctor",
    version: "1.2.3",
    generatedAt: "2026-11-26T00:00:00.000Z",
    target: { api: "https://rnwy.com", issuer: "https://rnwy.com", jwks: "https://rnwy.com/.well-known/jwks.json", apiKey: true },
    requests: 15,
    summary: summarizeChecks(checks),
    checks,
  };
}

describe("doctor report", () => {
  it("exits 0 when all hold, 3 when one differs (over 4), 4 when one could not be checked", () => {
    const hold: CheckResult = { id: "sig-bytes", status: "holds", summary: "ok" };
    const differ: CheckResult = { id: "jws-header", status: "differs", summary: "x" };
    const gap: CheckResult = { id: "onchain-encodings", status: "could-not-check", summary: "needs --rpc" };
    expect(doctorExitCode([hold])).toBe(DOCTOR_EXIT_CODES.allHold);
    expect(doctorExitCode([hold, gap])).toBe(4);
    expect(doctorExitCode([gap, differ])).toBe(3);
    expect(summarizeChecks([hold, differ, gap, gap])).toEqual({ holds: 1, differs: 1, couldNotCheck: 2, exitCode: 3 });
  });

  it("prints a table that wraps the last column to the width and strips what a service could inject", () => {
    const text = formatDoctorTable(
      report([
        {
          id: "sig-bytes",
          status: "holds",
          summary: "sig covers JSON.stringify(signed), insertion order (2 trust-checks, key rnwy-trust-v2)",
        },
        { id: "fields:stats", status: "differs", summary: "unknown \u001b[31mred\u001b[0m\u202eevil\nline" },
      ]),
      { columns: 72 },
    );
    expect(text).toBe(
      [
        "trustgate doctor 1.2.3: https://rnwy.com (issuer https://rnwy.com, keys https://rnwy.com/.well-known/jwks.json, with an API key); no chain (--rpc); 15 requests",
        "",
        "CHECK         RESULT   WHAT IT SAW",
        "sig-bytes     holds    sig covers JSON.stringify(signed), insertion",
        "                       order (2 trust-checks, key rnwy-trust-v2)",
        "fields:stats  DIFFERS  unknown red\\u{202E}evil line",
        "",
        "1 hold, 1 differs, 0 could not be checked: exit 3",
        "",
      ].join("\n"),
    );
  });

  it("takes the API key and the key in an RPC URL's path as secrets, not an RPC URL with nothing to hide", () => {
    expect(secretsOf({ apiKey: "k-123", rpcUrl: "https://base-mainnet.g.alchemy.com/v2/AbCdEf0123456789xyz" })).toEqual([
      "k-123",
      "https://base-mainnet.g.alchemy.com/v2/AbCdEf0123456789xyz",
      "AbCdEf0123456789xyz",
    ]);
    expect(secretsOf({ rpcUrl: "http://127.0.0.1:8545" })).toEqual([]);
    const cleaned = withoutSecrets(
      { note: "fork of https://base-mainnet.g.alchemy.com/v2/AbCdEf0123456789xyz failed", ["k-123"]: ["Bearer k-123"] },
      secretsOf({ apiKey: "k-123", rpcUrl: "https://base-mainnet.g.alchemy.com/v2/AbCdEf0123456789xyz" }),
    );
    expect(cleaned).toEqual({ note: "fork of *** failed", "***": ["Bearer ***"] });
  });
});
