/**
 * Fixtures of the state file tests: a scope, an agent's line, a header line, and a fresh file holding lines.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stateLine } from "../../../src/drift/state/codec";
import { stateHeader } from "../../../src/drift/state/header";
import type { DriftStateScope } from "../../../src/drift/state/schema";
import { ENCODING, NOW } from "../stages/fixtures";

/** The scope a state is written for in these tests. */
export const SCOPE: DriftStateScope = {
  oracle: "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4",
  attestedOracle: null,
  chainId: 8453,
  api: "http://127.0.0.1:8787",
  issuer: "http://127.0.0.1:8787",
  rule: "score >= 51",
  encoding: { tiers: [...ENCODING.tiers], sybilSeverities: [...ENCODING.sybilSeverities] },
};
/** One agent's line: verified, with its on-chain record. */
export const ENTRY = {
  agent: "base:erc8004:1",
  verified: {
    score: 52,
    tier: "developing",
    sybilSeverity: null,
    at: "2026-11-22T03:00:00.000Z",
    computedAt: "2026-11-22T03:00:00.000Z",
    kid: "rnwy-trust-v2",
    expiresAt: "2026-11-23T10:00:00.000Z",
    submission: { ok: true as const, form: "sig" as const },
  },
  unverified: null,
  verifiedAt: "2026-11-22T10:00:00.000Z",
  onchain: { score: 52, tierCode: 2, sybilSeverityCode: 0, updatedAt: 1_795_000_000 },
  block: "12",
};

/** A fresh state file holding these lines. */
export function file(lines: string[]): string {
  const path = join(mkdtempSync(join(tmpdir(), "state-")), "state.jsonl");
  writeFileSync(path, lines.join(""));
  return path;
}

/** A header line for {@link SCOPE}, written at `NOW`, with no run completed. */
export const header = (): string => stateLine.header(stateHeader(SCOPE, NOW, null));
