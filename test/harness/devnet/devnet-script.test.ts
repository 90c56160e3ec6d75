// scripts/devnet.ts, run as a user runs it: prints the URLs, serves until SIGINT, then exits cleanly.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect } from "chai";
import { afterAll, describe, it } from "vitest";
import { main } from "../../../src/cli/main";
import type { DoctorReport } from "../../../src/doctor/report";
import type { DriftReport } from "../../../src/drift/types";

const ROOT = resolve(__dirname, "../../..");
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
    // The service keeps and announces the documented limits: the printed command needs no --rate, only a key (any).
    const printed = /^\s*(TRUSTGATE_API_KEY=\S+ npx trustgate drift .*)$/m.exec(out)?.[1];
    expect(printed, out).to.equal(`TRUSTGATE_API_KEY=local-devnet npx trustgate drift --rpc ${rpcUrl} --api ${apiUrl} --all`);

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

    // The printed command works as printed: run through the CLI's own argument parser and a whole scan.
    const [assignment, npx, bin, ...argv] = printed!.split(/\s+/);
    expect([npx, bin]).to.deep.equal(["npx", "trustgate"]);
    const [variable, key] = assignment!.split("=");
    const dir = mkdtempSync(join(tmpdir(), "trustgate-devnet-"));
    let stdout = "";
    let stderr = "";
    const code = await main([...argv, "--json", join(dir, "report.json")], {
      stdout: { write: (chunk: string) => (stdout += chunk) },
      stderr: { write: (chunk: string) => (stderr += chunk) },
      env: { [variable!]: key! },
      isTTY: false,
    });
    // Every answer announces the limit (30 a minute without a key), so that `trustgate doctor` against it holds.
    expect((await fetch(`${apiUrl}/api/agents?limit=1`)).headers.get("x-ratelimit-limit")).to.equal("30");
    // Not 2 (a usage error, what the printed command used to give). With only 200 agents, the 2 delisted agents
    // and the truncated body are more unverified agents than the default --max-errors 1 % allows: exit 4.
    expect(code, stderr).to.equal(4);
    expect(stdout).to.match(/FAILED: could not verify: 3 of \d+ agents unverified/);
    const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8")) as DriftReport;
    expect(report.summary.agents).to.be.above(200);
    // The client followed the limit the service announced for a key (300 a minute), not a --rate.
    expect(report.projection?.ratePerMinute).to.equal(300);
    // The delisted agents are on-chain only: found by replaying the oracle's events (the default), not silently lost.
    const row = report.agents.find((r) => r.chain === chain && r.registry === registry && r.agentId === id);
    expect(row?.status, JSON.stringify(report.summary.triage)).to.equal("missing-attestation");
    expect(report.summary.triage?.onchainEnumeration).to.include({ notListed: 2 });
    expect(report.notes ?? []).to.deep.equal([]);

    // trustgate doctor against the same service: its rate-limit-headers check holds (the documented limits, announced).
    const doctorJson = join(dir, "doctor.json");
    await main(["doctor", "--api", apiUrl!, "--json", doctorJson], {
      stdout: { write: () => true },
      stderr: { write: () => true },
      env: {},
      isTTY: false,
    });
    const doctor = JSON.parse(readFileSync(doctorJson, "utf8")) as DoctorReport;
    expect(doctor.checks.find((check) => check.id === "rate-limit-headers")?.status).to.equal("holds");

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
    expect(bad.stderr).to.contain("--size must be an integer");
  });
});
