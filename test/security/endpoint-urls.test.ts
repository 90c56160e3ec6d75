/**
 * Endpoint URLs never reach an output whole: the deployment scripts name a failing RPC with the provider's key in
 * its path hidden (also with TRUSTGATE_DEBUG), and `--api`, `--rpc` and the scripts' RPC settings refuse credentials,
 * a query or a fragment at parsing, with the reason, while a key in the path is accepted. Real child processes and
 * loopback servers.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { main } from "../../src/cli/main.js";
import { generateSigningKey } from "../../src/harness/signing.js";
import { jwksOf } from "../support/attestations.js";
import { tempDeploymentsDir } from "../deploy/support.js";
import { type HostileServer, startHostileServer } from "./hostile-service.js";

const run = promisify(execFile);
const TSX = join(process.cwd(), "node_modules", "tsx", "dist", "cli.mjs");
const PROVIDER_KEY = "Zx81kQpLm3RtYv7Wn2Bc5Hd9Fs4Jg6Ae";

/** Runs one of the repository's scripts, as `npm run deploy` / `npm run keys` would. */
async function script(file: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  const home = tempDeploymentsDir();
  const base = { ...process.env };
  for (const name of [
    "DEPLOYER_PRIVATE_KEY",
    "BASE_RPC_URL",
    "BASE_SEPOLIA_RPC_URL",
    "TRUSTGATE_RPC_URL",
    "LOCALHOST_RPC_URL",
    "TRUSTGATE_DEBUG",
  ])
    delete base[name];
  try {
    const { stdout, stderr } = await run(process.execPath, [TSX, file, ...args], {
      env: { ...base, HOME: home, XDG_CONFIG_HOME: home, ...env },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

/** An RPC endpoint that fails every request with 503, reached with a provider key in its path. */
let rpc: HostileServer;
let rpcUrl: string;
let jwksFile: string;
beforeAll(async () => {
  rpc = await startHostileServer((_req, res) => {
    res.writeHead(503, { "content-type": "text/plain" });
    res.end("upstream unavailable");
  });
  rpcUrl = `${rpc.url}/v2/${PROVIDER_KEY}`;
  jwksFile = join(tempDeploymentsDir(), "jwks.json");
  writeFileSync(jwksFile, JSON.stringify(jwksOf(await generateSigningKey("rnwy-trust-v2"))));
});
afterAll(async () => {
  await rpc.close();
});

describe("a failing RPC with a key in its path", () => {
  test("scripts/deploy.ts names it redacted, in its one line and with TRUSTGATE_DEBUG", async () => {
    for (const env of [{}, { TRUSTGATE_DEBUG: "1" }] as Record<string, string>[]) {
      const result = await script(
        "scripts/deploy.ts",
        ["--network", "localhost", "--rpc-url", rpcUrl, "--deployments-dir", tempDeploymentsDir()],
        env,
      );
      expect(result.code).toBe(2);
      expect(result.output).toContain(`Cannot reach the localhost node at ${rpc.url}/v2/…`);
      expect(result.output).not.toContain(PROVIDER_KEY);
    }
    expect(rpc.requests.length).toBeGreaterThan(0);
  });

  test("scripts/keys.ts names it redacted", async () => {
    const result = await script("scripts/keys.ts", [
      "--rpc-url",
      rpcUrl,
      "--oracle",
      "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      "--jwks",
      jwksFile,
    ]);
    expect(result.code).toBe(2);
    expect(result.output).toContain(`${rpc.url}/v2/…`);
    expect(result.output).not.toContain(PROVIDER_KEY);
  });

  test("scripts/deploy.ts refuses an RPC setting with credentials, a query or a fragment, saying why and quoting none of it", async () => {
    const cases: [string, string][] = [
      [`http://deployer:${PROVIDER_KEY}@127.0.0.1:9/`, "credentials (user:password@)"],
      [`http://127.0.0.1:9/rpc?apikey=${PROVIDER_KEY}`, "it has a query"],
      [`http://127.0.0.1:9/rpc#${PROVIDER_KEY}`, "it has a fragment"],
    ];
    for (const [url, reason] of cases) {
      const result = await script("scripts/deploy.ts", ["--network", "localhost", "--deployments-dir", tempDeploymentsDir()], {
        TRUSTGATE_RPC_URL: url,
      });
      expect(result.code, result.output).toBe(2);
      expect(result.output).toContain("Invalid TRUSTGATE_RPC_URL URL");
      expect(result.output).toContain(reason);
      expect(result.output).not.toContain(PROVIDER_KEY);
    }
  });
});

describe("trustgate drift endpoints", () => {
  function io() {
    const out: string[] = [];
    return {
      io: { stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => out.push(s) }, env: {}, isTTY: false },
      text: () => out.join(""),
    };
  }

  test("--api and --rpc with credentials, a query or a fragment: exit 2 with the reason, nothing of the secret printed", async () => {
    const cases: [string[], RegExp][] = [
      [
        ["--api", `http://svc:${PROVIDER_KEY}@127.0.0.1:9`],
        /^trustgate: Invalid --api URL "http:\/\/127\.0\.0\.1:9": it contains credentials/,
      ],
      [["--api", `http://127.0.0.1:9/?key=${PROVIDER_KEY}`], /^trustgate: Invalid --api URL "http:\/\/127\.0\.0\.1:9": it has a query/],
      [
        ["--rpc", `https://u:${PROVIDER_KEY}@base.example/`],
        /^trustgate: Invalid --rpc URL "https:\/\/base\.example": it contains credentials/,
      ],
      [["--rpc", `https://base.example/#${PROVIDER_KEY}`], /^trustgate: Invalid --rpc URL "https:\/\/base\.example": it has a fragment/],
    ];
    for (const [flags, message] of cases) {
      const args = { "--rpc": "http://127.0.0.1:9", "--api": "http://127.0.0.1:9" } as Record<string, string>;
      args[flags[0]!] = flags[1]!;
      const { io: cli, text } = io();
      const code = await main(["drift", "--rpc", args["--rpc"]!, "--api", args["--api"]!, "--agents", "base:1"], cli, {
        runDrift: () => Promise.reject(new Error("the run must not start")),
      });
      expect(code, text()).toBe(2);
      expect(text()).toMatch(message);
      expect(text()).not.toContain(PROVIDER_KEY);
    }
  });

  test("(not a regression: the legitimate form) an RPC URL with a provider key in its path is accepted, and the run's messages hide the key", async () => {
    const { io: cli, text } = io();
    const code = await main(["drift", "--rpc", rpcUrl, "--api", "http://127.0.0.1:9", "--agents", "base:1", "--timeout", "5s"], cli);
    expect(code).toBe(2);
    expect(text()).toContain(`Cannot reach the RPC at ${rpc.url}/v2/…`);
    expect(text()).not.toContain(PROVIDER_KEY);
  });
});
