// scripts/devnet.ts, run as a user runs it: prints the URLs, serves until SIGINT, then exits cleanly.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import { expect } from "chai";
import { afterAll, describe, it } from "vitest";

const ROOT = resolve(__dirname, "../..");
const SCRIPT = "scripts/devnet.ts";

/** Runs the script under tsx (one process, so that signals reach it directly). */
function start(args: string[]): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", SCRIPT, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
}

/** Collects stdout until `marker` appears (or the process exits). */
function waitFor(child: ChildProcess, marker: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let out = "";
    let err = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes(marker)) resolvePromise(out);
    });
    child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`exited with ${code} before "${marker}":\n${out}\n${err}`)));
  });
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolvePromise) => {
    if (child.exitCode !== null) resolvePromise(child.exitCode);
    else child.once("exit", (code) => resolvePromise(code));
  });
}

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

describe("scripts/devnet.ts", () => {
  it("prints the RPC, API and JWKS URLs of a running environment, and stops on SIGINT", async () => {
    const child = start(["--size", "200", "--seed", "3", "--delisted", "2"]);
    children.push(child);
    const out = await waitFor(child, "Ctrl-C stops.");
    const rpcUrl = /RPC URL:\s+(\S+)/.exec(out)?.[1];
    const apiUrl = /API URL:\s+(\S+)/.exec(out)?.[1];
    const jwksUrl = /JWKS URL:\s+(\S+)/.exec(out)?.[1];
    expect(rpcUrl).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(apiUrl).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(jwksUrl).to.equal(`${apiUrl}/.well-known/jwks.json`);
    expect(out).to.contain(`npx trustgate drift --rpc ${rpcUrl} --api ${apiUrl}`);

    const chainId = await fetch(rpcUrl!, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
    }).then((r) => r.json() as Promise<{ result: string }>);
    expect(chainId.result).to.equal("0x2105");
    const jwks = (await fetch(jwksUrl!).then((r) => r.json())) as { keys: unknown[] };
    expect(jwks.keys.length).to.be.above(0);
    const delisted = /delisted:\s+(\S+?):(\S+?):(\d+)/.exec(out);
    expect(delisted, out).to.not.equal(null);
    const [, chain, registry, id] = delisted!;
    expect((await fetch(`${apiUrl}/api/trust-check?id=${id}&chain=${chain}&registry=${registry}`)).status).to.equal(404);

    child.kill("SIGINT");
    expect(await exitOf(child)).to.equal(0);
    const stillUp = await fetch(apiUrl!).then(
      () => true,
      () => false,
    );
    expect(stillUp, "the service still answers after SIGINT").to.equal(false);
  });

  it("refuses an unknown option and a bad number with exit code 2 and the usage", () => {
    const unknown = spawnSync(process.execPath, ["--import", "tsx", SCRIPT, "--bogus"], { cwd: ROOT, encoding: "utf8" });
    expect(unknown.status).to.equal(2);
    expect(unknown.stderr).to.contain("Unknown option '--bogus'").and.to.contain("Usage:");
    const bad = spawnSync(process.execPath, ["--import", "tsx", SCRIPT, "--size", "many"], { cwd: ROOT, encoding: "utf8" });
    expect(bad.status).to.equal(2);
    expect(bad.stderr).to.contain('--size must be an integer');
  });
});
