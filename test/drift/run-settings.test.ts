// A drift configuration checked and split into each stage's part (src/drift/run-settings.ts): the state's setup, the
// service client's options, the report's redacted URLs, and the checks made before anything is asked of the network.
import { describe, expect, it } from "vitest";
import { DEFAULT_TRUST_ENCODING } from "../../src/config/encodings";
import type { DriftConfig } from "../../src/drift/config";
import { runSettingsOf } from "../../src/drift/run-settings";
import { InvalidArgumentError } from "../../src/errors";

const CONFIG: DriftConfig = {
  rpcUrl: "http://user:secret@127.0.0.1:8545/",
  oracle: "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4",
  apiUrl: "http://127.0.0.1:8787/",
  issuer: "http://127.0.0.1:8787",
  jwks: "http://127.0.0.1:8787/.well-known/jwks.json",
  scope: { kind: "all", seed: 7 },
  maxAgeSeconds: 3600,
  concurrency: 4,
  encoding: DEFAULT_TRUST_ENCODING,
};

describe("a drift run's settings", () => {
  it("hands each stage its part: the preflight its endpoints, the client its options, the report redacted URLs", () => {
    const settings = runSettingsOf({ ...CONFIG, apiKey: "", ratePerMinute: 60, gate: CONFIG.oracle, timeoutMs: 5000 });
    expect(settings.preflight).toEqual({
      rpcUrl: CONFIG.rpcUrl,
      oracle: CONFIG.oracle,
      attestedOracle: undefined,
      gate: CONFIG.oracle,
      threshold: undefined,
      jwks: CONFIG.jwks,
      timeoutMs: 5000,
    });
    // An empty key is no key: not sent, and not counted by the projection.
    expect(settings.service).toEqual({ baseUrl: CONFIG.apiUrl, apiKey: undefined, rateLimit: 60, timeoutMs: 5000 });
    expect(settings.projection).toEqual({ apiKey: false, rateConfigured: true });
    expect(settings.report.rpc).toBe("http://127.0.0.1:8545");
    expect(settings.state).toBeUndefined();
    expect(settings.audit).toEqual({ confidence: 0.99, lieRate: 0.01 });
    expect(settings.errorLimit).toBeUndefined();
  });

  it("writes the state for the setup, naming the service by its identity when it has one", () => {
    const settings = runSettingsOf({ ...CONFIG, state: "state.jsonl", full: true, serviceIdentity: "embedded:demo" });
    expect(settings.state).toEqual({
      path: "state.jsonl",
      full: true,
      seed: 7,
      setup: {
        oracle: CONFIG.oracle,
        attestedOracle: null,
        api: "embedded:demo",
        issuer: "embedded:demo",
        encoding: { tiers: [...DEFAULT_TRUST_ENCODING.tiers], sybilSeverities: [...DEFAULT_TRUST_ENCODING.sybilSeverities] },
      },
    });
    expect(runSettingsOf({ ...CONFIG, state: "s.jsonl" }).state?.setup).toMatchObject({
      api: "http://127.0.0.1:8787",
      issuer: CONFIG.issuer,
    });
  });

  it.each([
    [{ state: "s.jsonl", scope: { kind: "list" as const, agents: [] } }, "A state file (--state) applies only to --all scans"],
    [{ state: " " }, "The state file name (--state) is empty"],
    [{ full: true }, "--full ignores the state file, so it needs --state"],
    [{ maxDurationSeconds: -1 }, "maxDurationSeconds must be a number of seconds >= 0, got -1"],
    [{ readChunkSize: 0 }, "readChunkSize"],
    [{ failOn: "new" as const }, "--fail-on new compares tonight with the night before, so it needs --state <file>"],
    [{ baseline: { file: "b.jsonl", entries: [] } }, "--accept compares tonight with the night before, so it needs --state <file>"],
    [{ state: "s.jsonl", failOn: "some" as "new" }, 'failOn must be "new" or "any", got "some"'],
  ])("refuses a configuration before the network is asked anything: %#", (change, message) => {
    expect(() => runSettingsOf({ ...CONFIG, ...change })).toThrow(InvalidArgumentError);
    expect(() => runSettingsOf({ ...CONFIG, ...change })).toThrow(message);
  });
});
