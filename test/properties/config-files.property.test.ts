/**
 * Property-based tests of the files the kit reads, through their public readers: the deployment configuration
 * (`loadDeployConfig` + `networkConfig`, `deploy/config.json`), the deployments file (`readDeploymentsFile`,
 * `deployments/<chainId>.json`), the drift state file (`readDriftState`, `--state`), a `--jwks` file given to the
 * command line (`main`), and the JWKS file whose keys a deployment installs (`loadJwks` + `selectSigningKeys`,
 * `attestedOracle.jwks`).
 *
 * Input covered: the shipped or a valid file mutated — cut short anywhere, bytes inserted (NUL, BOM, ESC, a line
 * break), a value anywhere replaced by a random one (wrong types, huge numbers, non-finite numbers, prototype keys),
 * `__proto__`/`constructor` keys injected, lines dropped, duplicated or swapped — and whole random text or JSON.
 *
 * Property: each reader returns a value of the documented shape (every field the kit later uses checked, nothing
 * lost: every network, record and agent line of the file is there) or throws the kit's typed error naming the file
 * (`DeploymentError` `bad-config`, `ConfigurationError` with the line, exit 2 for `--jwks`); never a raw
 * `TypeError`/`SyntaxError`; `Object.prototype` is never polluted.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { main, type RunDriftFunction } from "../../src/cli/main.js";
import {
  JWK_THUMBPRINT_PATTERN,
  loadDeployConfig,
  loadJwks,
  networkConfig,
  readDeploymentsFile,
  selectSigningKeys,
} from "../../src/deploy/index.js";
import type { DriftConfig } from "../../src/drift/config.js";
import { stateLine } from "../../src/drift/state/codec.js";
import { stateHeader } from "../../src/drift/state/header.js";
import { readDriftState } from "../../src/drift/state/read.js";
import { ConfigurationError, DeploymentError } from "../../src/errors.js";
import { report, row } from "../cli/report-fixture.js";
import { ESC, expectKitError, expectPrototypeClean, hostileJsonValue, hostileString, RAW_CONTROL, within } from "./support.js";

const dir = mkdtempSync(join(tmpdir(), "trustgate-file-props-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let fileCount = 0;
/** A fresh file name in the scratch directory (so that no run sees another's file). */
const freshPath = (name: string) => join(dir, `${fileCount++}-${name}`);

/**
 * Like `replaceAt` of ./support.js, but a last level may also drop the key (one choice in seven): a file with a field
 * missing, not only a field changed.
 */
function replaceOrDropAt(value: unknown, choices: readonly number[], replacement: unknown): unknown {
  if (choices.length === 0 || value === null || typeof value !== "object") return replacement;
  const [choice, ...rest] = choices;
  if (Array.isArray(value)) {
    if (value.length === 0) return replacement;
    const copy = [...value];
    const i = choice! % copy.length;
    copy[i] = replaceOrDropAt(copy[i], rest, replacement);
    return copy;
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return replacement;
  const key = keys[choice! % keys.length]!;
  const copy: Record<string, unknown> = {};
  for (const k of keys) Object.defineProperty(copy, k, { value: (value as Record<string, unknown>)[k], enumerable: true, writable: true });
  copy[key] = rest.length === 0 && choice! % 7 === 0 ? undefined : replaceOrDropAt(copy[key], rest, replacement);
  return copy;
}

/** Text mutations of a valid file. */
function mutatedText(valid: string, json: unknown): fc.Arbitrary<string> {
  const position = fc.nat({ max: valid.length });
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), hostileJsonValue())
        .map(([c, r]) => jsonText(replaceOrDropAt(json, c, r))),
    },
    { weight: 2, arbitrary: position.map((at) => valid.slice(0, at)) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(position, fc.constantFrom("\u0000", "\uFEFF", ESC, "\n", "\r\n", "}", "]", ",", '"', "\\", "\ud800", "1e999", "NaN"))
        .map(([at, insert]) => valid.slice(0, at) + insert + valid.slice(at)),
    },
    { weight: 1, arbitrary: fc.constant(`\uFEFF${valid}`) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            '"__proto__":{"polluted":true,"isAdmin":true},',
            '"constructor":{"prototype":{"polluted":true}},',
            '"__proto__":null,',
          ),
          fc.nat(),
        )
        .map(([injection, pick]) => {
          const opens = [...valid.matchAll(/\{/g)].map((m) => m.index!);
          const at = opens[pick % opens.length]! + 1;
          return valid.slice(0, at) + injection + valid.slice(at);
        }),
    },
    { weight: 1, arbitrary: hostileString() },
    { weight: 1, arbitrary: hostileJsonValue().map(jsonText) },
  );
}

/** JSON text of a value (JSON.stringify drops undefined; a top-level undefined becomes empty text). */
function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? "";
}

/** The first error a call throws, or its result. */
function attempt<T>(call: () => T): { ok: true; value: T } | { ok: false; error: unknown } {
  try {
    return { ok: true, value: call() };
  } catch (error) {
    return { ok: false, error };
  }
}

const SHIPPED_CONFIG = readFileSync(join(__dirname, "../../deploy/config.json"), "utf8");
const HEX32 = /^0x[0-9a-fA-F]{64}$/;

describe("deploy/config.json (property)", () => {
  it("a mutated deployment configuration: a validated configuration with every network, or a DeploymentError naming the file", () => {
    const parsed = JSON.parse(SHIPPED_CONFIG) as unknown;
    fc.assert(
      fc.property(mutatedText(SHIPPED_CONFIG, parsed), (text) => {
        const path = freshPath("config.json");
        writeFileSync(path, text);
        const result = attempt(() => loadDeployConfig(path));
        expectPrototypeClean();
        if (!result.ok) {
          expectKitError(result.error, ["DEPLOYMENT"]);
          expect(result.error).toBeInstanceOf(DeploymentError);
          expect((result.error as DeploymentError).reason).toBe("bad-config");
          expect(result.error.message).toContain(path);
          return;
        }
        // Nothing lost: each network of the file is there, by its name, with its chain id and policy.
        // As read back: a lone surrogate written to the file comes back as U+FFFD.
        const raw = JSON.parse(readFileSync(path, "utf8").replace(/^\uFEFF/, "")) as {
          networks: Record<string, { chainId: number; policy: unknown }>;
        };
        const names = Object.keys(raw.networks);
        expect(Object.keys(result.value.networks).sort()).toEqual([...names].sort());
        for (const name of names) {
          const network = networkConfig(result.value, name);
          expect(network.chainId).toBe(raw.networks[name]!.chainId);
          expect(Number.isSafeInteger(network.chainId) && network.chainId > 0).toBe(true);
          expect(network.policy).toEqual(raw.networks[name]!.policy);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe("--network of the deployment (property)", () => {
  it("any network name (prototype keys included): the configuration's own entry, or a DeploymentError naming the networks", () => {
    const config = loadDeployConfig(join(__dirname, "../../deploy/config.json"));
    const names = Object.keys(config.networks);
    fc.assert(
      fc.property(
        fc.oneof(hostileString(), fc.constantFrom(...names, "toString", "constructor", "__proto__", "hasOwnProperty", "valueOf")),
        (name) => {
          const result = attempt(() => networkConfig(config, name));
          if (!result.ok) {
            expectKitError(result.error, ["DEPLOYMENT"]);
            expect(result.error.message).toContain(names[0]);
            expect(names).not.toContain(name);
            return;
          }
          expect(names).toContain(name);
          expect(result.value).toBe(config.networks[name]);
          expect(Number.isSafeInteger(result.value.chainId)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});

const RECORD = {
  name: "TrustAdmissionHook",
  address: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  transactionHash: `0x${"ab".repeat(32)}`,
  blockNumber: 12,
  constructorArgs: [["0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4", "0x0000000000000000000000000000000000000000", "8453", "erc8004"]],
  fingerprint: `0x${"cd".repeat(32)}`,
  gitCommit: "f32b36c",
  deployedAt: "2026-11-22T12:00:00.000Z",
};
const DEPLOYMENTS = {
  chainId: 31337,
  network: "localhost",
  genesisHash: `0x${"ef".repeat(32)}`,
  contracts: { TrustAdmissionHook: RECORD, AttestedTrustOracle: { ...RECORD, name: "AttestedTrustOracle", gitCommit: null } },
  history: [
    { ...RECORD, address: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512", replacedBy: RECORD.address, replacedAt: RECORD.deployedAt },
  ],
};

describe("deployments/<chainId>.json (property)", () => {
  it("a mutated deployments file: records of the documented shape, every one kept, or a DeploymentError naming the file", () => {
    const valid = jsonText(DEPLOYMENTS);
    fc.assert(
      fc.property(mutatedText(valid, DEPLOYMENTS), (text) => {
        const deploymentsDir = freshPath("deployments");
        const path = join(deploymentsDir, "31337.json");
        rmSync(deploymentsDir, { recursive: true, force: true });
        mkdirSync(deploymentsDir);
        writeFileSync(path, text);
        const result = attempt(() => readDeploymentsFile(deploymentsDir, 31337, "localhost"));
        expectPrototypeClean();
        if (!result.ok) {
          expectKitError(result.error, ["DEPLOYMENT"]);
          expect(result.error).toBeInstanceOf(DeploymentError);
          expect(result.error.message).toContain(path);
          return;
        }
        const file = result.value;
        expect(file.chainId).toBe(31337);
        expect(typeof file.network).toBe("string");
        if (file.genesisHash !== undefined) expect(file.genesisHash).toMatch(HEX32);
        expect(Object.getPrototypeOf(file.contracts) === Object.prototype || Object.getPrototypeOf(file.contracts) === null).toBe(true);
        const raw = JSON.parse(readFileSync(path, "utf8")) as { contracts: Record<string, unknown> };
        expect(Object.keys(file.contracts).sort()).toEqual(Object.keys(raw.contracts).sort());
        for (const [name, record] of Object.entries(file.contracts)) {
          const context = `${name}: ${JSON.stringify(record)}`;
          expect(record, context).toBeTypeOf("object");
          expect(record.name, context).toBeTypeOf("string");
          expect(record.address, context).toMatch(/^0x[0-9a-fA-F]{40}$/);
          expect(record.transactionHash, context).toMatch(HEX32);
          expect(record.fingerprint, context).toMatch(HEX32);
          expect(Number.isSafeInteger(record.blockNumber) && record.blockNumber >= 0, context).toBe(true);
          expect(Array.isArray(record.constructorArgs), context).toBe(true);
          expect(record.gitCommit === null || typeof record.gitCommit === "string", context).toBe(true);
          expect(record.deployedAt, context).toBeTypeOf("string");
        }
        for (const replaced of file.history ?? []) {
          const context = `history: ${JSON.stringify(replaced)}`;
          expect(replaced.address, context).toMatch(/^0x[0-9a-fA-F]{40}$/);
          expect(replaced.replacedBy, context).toMatch(/^0x[0-9a-fA-F]{40}$/);
          expect(replaced.replacedAt, context).toBeTypeOf("string");
          expect(replaced.transactionHash, context).toMatch(HEX32);
        }
      }),
      { numRuns: 500 },
    );
  });
});

const SCOPE = {
  oracle: "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4",
  attestedOracle: null,
  chainId: 8453,
  api: "http://127.0.0.1:2",
  issuer: "http://127.0.0.1:2",
  rule: "score >= 51",
  encoding: {
    tiers: ["flagged", "limited", "developing", "established"],
    sybilSeverities: ["none", "low", "moderate", "elevated", "heavy"],
  },
};
const AT = "2026-11-22T03:00:00.000Z";
const agentLine = (agent: string) =>
  stateLine.agent({
    agent,
    verified: {
      score: 60,
      tier: "developing",
      sybilSeverity: null,
      at: AT,
      computedAt: AT,
      kid: "rnwy-trust-v2",
      expiresAt: "2026-11-23T03:00:00.000Z",
      submission: { ok: true, form: "sig" },
    },
    unverified: null,
    verifiedAt: AT,
    onchain: { score: 60, tierCode: 2, sybilSeverityCode: 0, updatedAt: 1 },
    block: "123",
  });
const STATE_LINES = [
  stateLine.header(stateHeader(SCOPE, new Date(AT), null)),
  agentLine("8453:1:erc8004"),
  agentLine("8453:2:erc8004"),
  agentLine("__proto__"),
  stateLine.run({ run: "r1", startedAt: AT, seed: 7, full: false, blockNumber: "123", resumes: null }),
  stateLine.outcome({ run: "r1", agent: "8453:1:erc8004", fp: "x", at: AT, outcome: { kind: "error", message: `${ESC}[2J boom` } }),
  stateLine.stop({ run: "r1", at: AT, reason: "max-duration" }),
];

/** Line-level mutations of the state file, besides the text ones. */
const stateText = fc.oneof(
  {
    weight: 3,
    arbitrary: mutatedText(
      STATE_LINES.join(""),
      STATE_LINES.map((l) => JSON.parse(l) as unknown),
    ).map((t) => (t.startsWith("[") ? linesOf(t) : t)),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.nat({ max: STATE_LINES.length - 1 }), fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), hostileJsonValue())
      .map(([i, choices, replacement]) => {
        const lines = [...STATE_LINES];
        lines[i] = `${JSON.stringify(replaceOrDropAt(JSON.parse(lines[i]!), choices, replacement)) ?? ""}\n`;
        return lines.join("");
      }),
  },
  {
    weight: 2,
    arbitrary: fc.shuffledSubarray([...STATE_LINES.keys()], { minLength: 0 }).map((order) => order.map((i) => STATE_LINES[i]!).join("")),
  },
  { weight: 1, arbitrary: fc.array(hostileString(), { maxLength: 5 }).map((lines) => lines.join("\n")) },
);

/** A mutated array of lines written back one JSON value per line. */
function linesOf(text: string): string {
  try {
    const values = JSON.parse(text) as unknown[];
    return Array.isArray(values) ? values.map((v) => `${JSON.stringify(v) ?? ""}\n`).join("") : text;
  } catch {
    return text;
  }
}

describe("drift state file (property)", () => {
  it("a valid state file: every agent line, run, outcome and stop read back", () => {
    const path = freshPath("state.jsonl");
    writeFileSync(path, STATE_LINES.join(""));
    const state = readDriftState(path)!;
    expect([...state.entries.keys()].sort()).toEqual(["8453:1:erc8004", "8453:2:erc8004", "__proto__"].sort());
    expect(state.journal.runs).toHaveLength(1);
    expect(state.journal.outcomes.size).toBe(1);
    expect(state.journal.stops).toHaveLength(1);
    expect(state.validLength).toBe(statSync(path).size);
  });

  it("a mutated state file: a state whose lines are all accounted for, or a ConfigurationError naming the file and the line", () => {
    fc.assert(
      fc.property(stateText, (text) => {
        const path = freshPath("state.jsonl");
        writeFileSync(path, text);
        const result = attempt(() => readDriftState(path));
        expectPrototypeClean();
        if (!result.ok) {
          expectKitError(result.error, ["CONFIGURATION"]);
          expect(result.error).toBeInstanceOf(ConfigurationError);
          expect(result.error.message).toContain(path);
          expect(result.error.message).toMatch(/line \d+/);
          return;
        }
        const bytes = Buffer.byteLength(text);
        if (result.value === null) {
          expect(text).toBe("");
          return;
        }
        const state = result.value;
        expect(state.validLength).toBeLessThanOrEqual(bytes);
        // Nothing lost: every complete line up to validLength is a header, agent, run, outcome or stop, or blank; only
        // a cut-short last line is left out, and it is said.
        const kept = Buffer.from(text)
          .subarray(0, state.validLength)
          .toString("utf8")
          .split("\n")
          .filter((l) => l.trim() !== "");
        const agents = kept.filter((l) => (JSON.parse(l) as { type?: unknown }).type === "agent");
        expect(state.entries.size).toBe(new Set(agents.map((l) => (JSON.parse(l) as { agent: string }).agent)).size);
        if (state.validLength < bytes && Buffer.from(text).subarray(state.validLength).toString("utf8").trim() !== "") {
          expect(state.truncatedLine).toBeGreaterThan(0);
        }
        for (const entry of state.entries.values()) expect(entry.agent.length).toBeGreaterThan(0);
      }),
      { numRuns: 600 },
    );
  });
});

describe("--state file through the command line (property)", () => {
  it("a mutated state file given to trustgate drift: exit 2, one clean line naming the file and the line when it is malformed", async () => {
    await fc.assert(
      fc.asyncProperty(stateText, async (text) => {
        const path = freshPath("state.jsonl");
        writeFileSync(path, text);
        const readable = attempt(() => readDriftState(path));
        const out: string[] = [];
        const io = { stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => out.push(s) }, env: {}, isTTY: false };
        // Nothing answers on port 1: a state file that reads well goes on to "chain unreachable", also exit 2.
        const argv = ["drift", "--rpc", "http://127.0.0.1:1", "--api", "http://127.0.0.1:1", "--all", "--state", path, "--timeout", "1s"];
        const code = await within(main(argv, io), 20_000, "trustgate drift --state");
        const printed = out.join("");
        expect(code, printed).toBe(2);
        expect(printed).toMatch(/^trustgate: [^\n]*\S[^\n]*\n$/);
        expect(RAW_CONTROL.test(printed), printed).toBe(false);
        if (!readable.ok) {
          expect(printed).toContain(path);
          expect(printed).toMatch(/line \d+/);
        }
      }),
      { numRuns: 60, interruptAfterTimeLimit: 40_000 },
    );
  }, 60_000);
});

/** A P-256 public key (its coordinates only), the base of the key sets below. */
const PUBLIC_P256_JWK = {
  kty: "EC",
  crv: "P-256",
  x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
  y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
};

describe("--jwks file (property)", () => {
  it("a --jwks file of any content: the run gets a key set of JWK objects, or exit 2 with one line naming the file", async () => {
    const keySet = {
      keys: [{ ...PUBLIC_P256_JWK, kid: "rnwy-trust-v2" }],
    };
    const valid = jsonText(keySet);
    await fc.assert(
      fc.asyncProperty(mutatedText(valid, keySet), async (text) => {
        const path = freshPath("jwks.json");
        writeFileSync(path, text);
        const out: string[] = [];
        const calls: DriftConfig[] = [];
        const runDrift: RunDriftFunction = async (config) => {
          calls.push(config);
          return report([row({ agentId: "1" })]);
        };
        const io = { stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => out.push(s) }, env: {}, isTTY: false };
        const argv = [
          "drift",
          "--rpc",
          "http://127.0.0.1:1",
          "--api",
          "http://127.0.0.1:2",
          "--agents",
          "base:1",
          "--jwks",
          path,
          "--quiet",
        ];
        const code = await main(argv, io, { runDrift });
        const printed = out.join("");
        expectPrototypeClean();
        expect(RAW_CONTROL.test(printed), printed).toBe(false);
        if (code === 2) {
          expect(printed).toMatch(/^trustgate: [^\n]*--jwks[^\n]*\n$/);
          expect(printed).toContain(path);
          expect(calls).toHaveLength(0);
          return;
        }
        expect(code).toBe(0);
        const jwks = calls[0]!.jwks as { keys: { kty: unknown }[] };
        expect(Array.isArray(jwks.keys) && jwks.keys.length > 0).toBe(true);
        for (const key of jwks.keys) expect(key.kty).toBeTypeOf("string");
      }),
      { numRuns: 300, interruptAfterTimeLimit: 30_000 },
    );
  }, 60_000);
});

describe("JWKS file of a deployment (property)", () => {
  it("a JWKS file of any content: keys of 32-byte coordinates under their kids, or a DeploymentError naming the file", async () => {
    const keySet = {
      keys: [
        { ...PUBLIC_P256_JWK, kid: "rnwy-trust-v2", alg: "ES256", use: "sig" },
        { ...PUBLIC_P256_JWK, kid: "rnwy-trust-v1" },
      ],
    };
    const valid = jsonText(keySet);
    let loaded = 0;
    await fc.assert(
      fc.asyncProperty(
        mutatedText(valid, keySet),
        fc.option(fc.array(fc.oneof(fc.constantFrom("rnwy-trust-v2", "rnwy-trust-v1"), hostileString()), { minLength: 1, maxLength: 2 }), {
          nil: undefined,
        }),
        async (text, kids) => {
          const path = freshPath("keys.json");
          writeFileSync(path, text);
          let keys: Awaited<ReturnType<typeof selectSigningKeys>>;
          try {
            // Forced by name: any kid is taken from the file (a kid not forced is refused before the file is read).
            keys = await selectSigningKeys(await loadJwks(path), { forceKids: kids });
          } catch (error) {
            expectKitError(error, ["DEPLOYMENT"]);
            expect(error).toBeInstanceOf(DeploymentError);
            if ((error as DeploymentError).reason === "refused-kid") {
              expect(kids?.some((kid) => kid.trim() === "")).toBe(true);
              return;
            }
            expect(["bad-jwks", "jwks-unavailable"]).toContain((error as DeploymentError).reason);
            expect(error.message).toContain(path);
            return;
          } finally {
            expectPrototypeClean();
          }
          expect(keys.length).toBeGreaterThan(0);
          loaded++;
          for (const key of keys) {
            expect(key.kid).toBeTypeOf("string");
            expect(key.x).toMatch(/^0x[0-9a-fA-F]{64}$/);
            expect(key.y).toMatch(/^0x[0-9a-fA-F]{64}$/);
            expect(key.thumbprint).toMatch(JWK_THUMBPRINT_PATTERN);
            if (kids !== undefined) expect(kids).toContain(key.kid);
          }
        },
      ),
      { numRuns: 300, interruptAfterTimeLimit: 30_000 },
    );
    expect(loaded).toBeGreaterThan(0);
  }, 60_000);
});
