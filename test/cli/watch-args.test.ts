/**
 * `trustgate watch`'s arguments: what each flag becomes in the loop's configuration, the webhook's key from the
 * environment only, and the usage errors (exit 2 through `main`).
 */
import { describe, expect, it } from "vitest";
import { BASE_TRUST_ORACLE_ADDRESS } from "../../src/config/addresses";
import { DEFAULT_MAX_AGE_SECONDS } from "../../src/drift/config";
import { main } from "../../src/cli/main";
import { parseWatchArgs, WEBHOOK_SECRET_ENV } from "../../src/cli/watch-args";
import { WATCH_HELP } from "../../src/cli/help";
import { capturedIo } from "../support/captured-io";

const WHERE = ["--rpc", "http://127.0.0.1:8545", "--api", "http://127.0.0.1:3000"];

describe("parseWatchArgs", () => {
  it("completes the drift job's defaults: the Base oracle, the issuer and JWKS from --api, the max age, no webhook", () => {
    const args = parseWatchArgs(WHERE, { env: {} });
    expect(args).toMatchObject({
      kind: "run",
      logFormat: "text",
      config: {
        rpcUrl: "http://127.0.0.1:8545",
        oracle: BASE_TRUST_ORACLE_ADDRESS,
        apiUrl: "http://127.0.0.1:3000",
        issuer: "http://127.0.0.1:3000",
        jwks: "http://127.0.0.1:3000/.well-known/jwks.json",
        maxAgeSeconds: DEFAULT_MAX_AGE_SECONDS,
      },
    });
    expect(args.kind === "run" && args.webhook).toBeUndefined();
    expect(args.kind === "run" && args.metrics).toBeUndefined();
  });

  it("reads every watch flag into the loop's configuration", () => {
    const args = parseWatchArgs(
      [
        ...WHERE,
        "--attested-oracle",
        "0x00000000000000000000000000000000000000a1",
        "--confirmations",
        "5",
        "--poll-interval",
        "500ms",
        "--ws",
        "ws://127.0.0.1:8546",
        "--from-block",
        "1200",
        "--events-from",
        "1000",
        "--max-silence",
        "26h",
        "--health-interval",
        "10m",
        "--reminder",
        "2h",
        "--report-link",
        "https://ci.example/nightly/report.html",
        "--audit-share",
        "25%",
        "--audit-chain",
        "base",
        "--state",
        "watch.json",
        "--webhook",
        "http://127.0.0.1:9000/hook",
        "--webhook-format",
        "slack",
        "--metrics",
        "127.0.0.1:9464",
        "--log-format",
        "json",
        "--threshold",
        "60",
        "--rate",
        "120",
      ],
      { env: { [WEBHOOK_SECRET_ENV]: "k" } },
    );
    if (args.kind !== "run") throw new Error("expected a run");
    expect(args.config).toMatchObject({
      attestedOracle: "0x00000000000000000000000000000000000000A1",
      confirmations: 5,
      pollIntervalMs: 500,
      newHeadsUrl: "ws://127.0.0.1:8546",
      fromBlock: 1200n,
      keysFromBlock: 1000n,
      cadence: { kind: "max-silence", seconds: 26 * 3600 },
      healthIntervalSeconds: 600,
      reminderIntervalSeconds: 7200,
      report: "https://ci.example/nightly/report.html",
      auditShare: 0.25,
      auditChain: "base",
      state: "watch.json",
      threshold: 60,
      ratePerMinute: 120,
    });
    expect(args.webhook).toEqual({
      url: "http://127.0.0.1:9000/hook",
      format: "slack",
      secret: "k",
      deadLetter: "watch.json.dead-letter.jsonl",
    });
    expect(args.metrics).toEqual({ host: "127.0.0.1", port: 9464 });
    expect(args.logFormat).toBe("json");
  });

  it("--expect-write becomes a daily cadence; it and --max-silence exclude each other", () => {
    const args = parseWatchArgs([...WHERE, "--expect-write", "03:00 UTC daily"], { env: {} });
    expect(args.kind === "run" && args.config.cadence).toMatchObject({ kind: "daily", atSecondOfDayUtc: 3 * 3600 });
    expect(() => parseWatchArgs([...WHERE, "--expect-write", "03:00 UTC daily", "--max-silence", "26h"], { env: {} })).toThrow(
      "--expect-write and --max-silence exclude each other",
    );
  });

  it("refuses --webhook without its key in the environment, and never takes the key as an argument", () => {
    expect(() => parseWatchArgs([...WHERE, "--webhook", "http://127.0.0.1:9000/hook"], { env: {} })).toThrow(WEBHOOK_SECRET_ENV);
    expect(() => parseWatchArgs([...WHERE, "--webhook-secret", "k"], { env: {} })).toThrow(/webhook-secret/);
  });

  it("refuses a run without --rpc or --api, and flags that need --webhook without it", () => {
    expect(() => parseWatchArgs(["--rpc", "http://127.0.0.1:8545"], { env: {} })).toThrow("needs --api <url>");
    expect(() => parseWatchArgs([...WHERE, "--webhook-format", "slack"], { env: {} })).toThrow("needs --webhook <url>");
    expect(() => parseWatchArgs([...WHERE, "--audit-share", "1.5"], { env: {} })).toThrow("--audit-share");
    expect(() => parseWatchArgs([...WHERE, "--poll-interval", "10ms"], { env: {} })).toThrow("--poll-interval");
    expect(() => parseWatchArgs([...WHERE, "--log-format", "xml"], { env: {} })).toThrow("--log-format");
    expect(() => parseWatchArgs([...WHERE, "--ws", "http://127.0.0.1:8545"], { env: {} })).toThrow("--ws");
  });
});

describe("trustgate watch through main", () => {
  it("prints its help (exit 0) and lists it in trustgate --help", async () => {
    const io = capturedIo();
    expect(await main(["watch", "--help"], io.io)).toBe(0);
    expect(io.stdout()).toBe(WATCH_HELP);
    for (const flag of ["--confirmations", "--webhook", "--metrics", "--expect-write", "--max-silence", "--state", "--log-format"]) {
      expect(WATCH_HELP).toContain(flag);
    }
    const top = capturedIo();
    expect(await main(["--help"], top.io)).toBe(0);
    expect(top.stdout()).toMatch(/^ {2}watch {8}/m);
  });

  it("a usage error exits 2 with one line naming the flag", async () => {
    const io = capturedIo();
    expect(await main(["watch", "--rpc", "http://127.0.0.1:8545"], io.io)).toBe(2);
    expect(io.stderr()).toBe("trustgate: trustgate watch needs --api <url>: the chain to follow and the service to ask\n");
  });
});
