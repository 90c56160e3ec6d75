/**
 * Property-based tests of the environment variables the kit reads, through its public entry points: the command
 * line `main(argv, io, deps)` (`TRUSTGATE_API_KEY`, `CI`, `TRUSTGATE_DEBUG`, with `io.env`), and the deployment's
 * `resolveRpcUrl` (`TRUSTGATE_RPC_URL`, a network's own variable such as `BASE_RPC_URL`) and `resolveDeployerKey`
 * (`DEPLOYER_PRIVATE_KEY`), exported from `src/deploy/`.
 *
 * Input covered: random and hostile values (control characters, escape sequences, blanks, prototype keys, a fake
 * API key, URLs carrying credentials, a query, a fragment or a provider key in the path, near-miss private keys),
 * random extra variables, and a scan that fails with a library error quoting such URLs.
 *
 * Property: nothing throws out of `main` and the exit code is the documented one (0 for a clean stand-in scan, 1
 * for a failed scan); the API key the scan is given is the variable's, trimmed, or none when blank, and the flag
 * wins over it; nothing printed holds a raw control character or part of a secret, with or without
 * `TRUSTGATE_DEBUG`; `resolveRpcUrl` returns an http(s) URL without credentials, query or fragment, from the first
 * source that has one, or throws a `DeploymentError` that names the source and quotes no secret;
 * `resolveDeployerKey` returns 32 bytes of hex or throws a `DeploymentError` that never quotes the value.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { main, type RunDriftFunction } from "../../src/cli/main.js";
import type { DriftConfig } from "../../src/drift/config.js";
import { DEPLOYER_KEY_VARIABLE, RPC_URL_VARIABLE, resolveDeployerKey, resolveRpcUrl } from "../../src/deploy/index.js";
import { DeploymentError } from "../../src/errors.js";
import { report, row } from "../cli/report-fixture.js";
import {
  errorForms,
  ESC,
  expectKitError,
  expectNoPartOf,
  expectNoSecrets,
  hostileString,
  PASSWORD_SECRET,
  PATH_SECRET,
  RAW_CONTROL,
  SECRET,
  within,
} from "./support.js";

const ARGV = ["drift", "--rpc", "http://127.0.0.1:1", "--api", "http://127.0.0.1:2", "--agents", "base:1"];
const CLEAN = report([row({ agentId: "1" })]);

/** Values a variable may hold: hostile text, blanks around the key, flags' spellings. */
const envValue = fc.oneof(
  hostileString(),
  fc.constantFrom("", " ", "\t\n", "0", "1", "false", "true", "FALSE", " yes ", SECRET, ` ${SECRET} `, `\n${SECRET}\r\n`),
);

/** Random extra variables, among them prototype keys. */
const extraEnv = fc.dictionary(
  fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("__proto__", "constructor", "NODE_OPTIONS", "HOME", "TRUSTGATE_DEBUG")),
  envValue,
  { maxKeys: 5 },
);

/** URLs as a library quotes them in an error: with credentials, a provider key in the path, a query, a fragment. */
const leakyUrl = fc.constantFrom(
  `http://user:${PASSWORD_SECRET}@127.0.0.1:8545/`,
  `https://base-mainnet.g.alchemy.com/v2/${PATH_SECRET}`,
  `https://127.0.0.1:1/rpc?apikey=${SECRET}`,
  `wss://127.0.0.1:1/ws#${SECRET}`,
  `http://${PASSWORD_SECRET}@127.0.0.1:1/v3/${PATH_SECRET}?x=${SECRET}`,
  `https://rnwy.com/api/trust-check?id=1&key=${SECRET}`,
);

/** A failure of the scan as a library would throw it: its message, its stack and its causes quote URLs. */
const libraryError = fc
  .tuple(leakyUrl, leakyUrl, hostileString(), fc.constantFrom("Error", "TypeError", "string", "object", "cause"))
  .map(([url, causeUrl, text, kind]) => {
    const message = `HTTP request failed. URL: ${url} ${ESC}[31m${text}${ESC}[0m\nRequest body: {"method":"eth_call"} ${causeUrl}`;
    if (kind === "string") return message;
    if (kind === "object") return { message, url };
    const error = kind === "TypeError" ? new TypeError(message) : new Error(message);
    if (kind === "cause") error.cause = new Error(`fetch ${causeUrl} failed\n at ${url}`);
    return error;
  });

function harness(env: Record<string, string>, run: RunDriftFunction) {
  const out: string[] = [];
  const err: string[] = [];
  const calls: DriftConfig[] = [];
  const runDrift: RunDriftFunction = async (config, hooks) => {
    calls.push(config);
    return run(config, hooks);
  };
  return {
    io: { stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => err.push(s) }, env, isTTY: false },
    deps: { runDrift, now: () => new Date("2026-11-22T12:00:00Z") },
    calls,
    output: () => ({ stdout: out.join(""), stderr: err.join("") }),
  };
}

function expectPrintable(output: Record<string, string>, context: string): void {
  for (const [name, text] of Object.entries(output)) {
    expect(RAW_CONTROL.test(text), `${name} holds a raw control character\n${context}\n${JSON.stringify(text)}`).toBe(false);
  }
  expectNoSecrets(output);
}

describe("environment variables (property)", () => {
  it("TRUSTGATE_API_KEY, CI and TRUSTGATE_DEBUG of any value: the key reaches the scan trimmed (the flag wins), nothing leaks", async () => {
    await fc.assert(
      fc.asyncProperty(
        extraEnv,
        fc.option(envValue, { nil: undefined }),
        fc.option(envValue, { nil: undefined }),
        fc.option(envValue, { nil: undefined }),
        fc.option(fc.constantFrom(SECRET, ` ${SECRET}`), { nil: undefined }),
        async (extra, apiKey, ci, debug, flag) => {
          const env: Record<string, string> = { ...extra };
          if (apiKey !== undefined) env.TRUSTGATE_API_KEY = apiKey;
          if (ci !== undefined) env.CI = ci;
          if (debug !== undefined) env.TRUSTGATE_DEBUG = debug;
          const h = harness(env, async () => CLEAN);
          const argv = flag === undefined ? ARGV : [...ARGV, "--api-key", flag];
          const code = await within(main(argv, h.io, h.deps), 10_000, "main");
          const context = `env ${JSON.stringify(env)} flag ${JSON.stringify(flag)}`;
          expect(code, context).toBe(0);
          expect(h.calls).toHaveLength(1);
          const fromEnv = env.TRUSTGATE_API_KEY?.trim();
          const expected = flag !== undefined ? flag.trim() : fromEnv ? fromEnv : undefined;
          expect(h.calls[0]!.apiKey, context).toBe(expected);
          expectPrintable(h.output(), context);
        },
      ),
      { numRuns: 300, interruptAfterTimeLimit: 30_000 },
    );
  }, 60_000);

  it("a scan that fails with a library error quoting URLs: exit 1, clean lines, no secret, with or without TRUSTGATE_DEBUG", async () => {
    await fc.assert(
      fc.asyncProperty(libraryError, fc.option(envValue, { nil: undefined }), extraEnv, async (thrown, debug, extra) => {
        const env: Record<string, string> = { ...extra, TRUSTGATE_API_KEY: SECRET };
        if (debug !== undefined) env.TRUSTGATE_DEBUG = debug;
        const h = harness(env, async () => {
          throw thrown;
        });
        const code = await within(main(ARGV, h.io, h.deps), 10_000, "main");
        const output = h.output();
        const context = `thrown ${JSON.stringify(String(thrown))} env ${JSON.stringify(env)}`;
        expect(code, context).toBe(1);
        expect(output.stderr, context).toMatch(/^trustgate: unexpected error: \S/);
        expectPrintable(output, context);
      }),
      { numRuns: 200, interruptAfterTimeLimit: 30_000 },
    );
  }, 60_000);

  it("TRUSTGATE_RPC_URL, the network's variable and --rpc-url of any value: a clean http(s) URL from the first source, or a DeploymentError without the secret", () => {
    const rpcValue = fc.oneof(
      envValue,
      leakyUrl,
      fc.constantFrom("http://127.0.0.1:8545", " https://127.0.0.1:1/v2/abc ", "ws://127.0.0.1:1"),
    );
    fc.assert(
      fc.property(
        fc.option(rpcValue, { nil: undefined }),
        fc.option(rpcValue, { nil: undefined }),
        fc.option(rpcValue, { nil: undefined }),
        fc.option(fc.constantFrom("http://127.0.0.1:8545", "https://sepolia.base.org"), { nil: undefined }),
        extraEnv,
        // The network's variable is named by deploy/config.json (rpcUrlEnv): any name, prototype members included.
        fc.oneof(
          fc.constant("BASE_RPC_URL"),
          fc.constantFrom("constructor", "toString", "__proto__", "hasOwnProperty"),
          fc.string({ maxLength: 10 }),
        ),
        (flag, general, specific, configured, extra, variable) => {
          // Like process.env, the environment inherits Object.prototype's members.
          const env: Record<string, string> = { ...extra };
          if (general !== undefined) env[RPC_URL_VARIABLE] = general;
          if (specific !== undefined && variable !== "") Object.defineProperty(env, variable, { value: specific, enumerable: true });
          const config = { rpcUrlEnv: variable, ...(configured !== undefined ? { rpcUrl: configured } : {}) };
          const sources: [string | undefined, string][] = [
            [flag, "--rpc-url"],
            [env[RPC_URL_VARIABLE], RPC_URL_VARIABLE],
            [variable !== "" && Object.hasOwn(env, variable) ? env[variable] : undefined, variable],
            [configured, "deploy/config.json"],
          ];
          const first = sources.find(([value]) => value !== undefined && value.trim() !== "");
          let resolved: ReturnType<typeof resolveRpcUrl>;
          try {
            resolved = resolveRpcUrl("base", config, flag, env);
          } catch (error) {
            expectKitError(error, ["DEPLOYMENT"]);
            expect(error).toBeInstanceOf(DeploymentError);
            // It names where the bad URL came from (or, with none, where one may be given).
            expect(error.message).toContain(first ? first[1] : RPC_URL_VARIABLE);
            expectNoSecrets(errorForms(error));
            return;
          }
          expect(first, "a URL was resolved from nothing").toBeDefined();
          expect(resolved.source).toBe(first![1]);
          expect(resolved.url).toBe(first![0]!.trim());
          const url = new URL(resolved.url);
          expect(["http:", "https:"]).toContain(url.protocol);
          expect(url.username + url.password + url.search + url.hash).toBe("");
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("DEPLOYER_PRIVATE_KEY of any value: 32 bytes of hex, or a DeploymentError that never quotes the value", () => {
    const hex64 = fc.stringMatching(/^[0-9a-fA-F]{64}$/);
    const keyValue = fc.oneof(
      envValue,
      hex64,
      hex64.map((k) => `0x${k}`),
      hex64.map((k) => ` 0X${k}\n`),
      hex64.map((k) => k.slice(1)),
      hex64.map((k) => `${k}0`),
      hex64.map((k) => `0x${k.slice(0, 63)}g`),
      hex64.map((k) => `${k.slice(0, 30)}${ESC}[2J${k.slice(30)}`),
    );
    fc.assert(
      fc.property(fc.option(keyValue, { nil: undefined }), fc.option(keyValue, { nil: undefined }), (fromEnv, fromVars) => {
        const env: Record<string, string> = fromEnv === undefined ? {} : { [DEPLOYER_KEY_VARIABLE]: fromEnv };
        const readVar = (name: string) => (name === DEPLOYER_KEY_VARIABLE ? fromVars : undefined);
        let key: string;
        try {
          key = resolveDeployerKey("base", 8453, env, readVar);
        } catch (error) {
          expectKitError(error, ["DEPLOYMENT"]);
          expect(error).toBeInstanceOf(DeploymentError);
          expect(error.message).toContain(DEPLOYER_KEY_VARIABLE);
          for (const value of [fromEnv, fromVars]) {
            const hex = value?.replace(/[^0-9a-fA-F]/g, "") ?? "";
            if (hex.length >= 16) {
              for (const [name, text] of Object.entries(errorForms(error))) expectNoPartOf(text, hex.slice(0, 40), name);
            }
          }
          return;
        }
        expect(key).toMatch(/^0x[0-9a-fA-F]{64}$/);
        const used = fromEnv?.trim() ? fromEnv : fromVars;
        expect(key.slice(2).toLowerCase()).toBe(used!.trim().replace(/^0x/i, "").toLowerCase());
      }),
      { numRuns: 1000 },
    );
  });
});
