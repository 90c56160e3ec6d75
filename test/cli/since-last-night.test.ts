// "Since last night" through the command line, night after night with one --state file: a real Hardhat chain with
// the reference oracle and the local signing service over loopback HTTP. Night 2 keeps one of night 1's flips, fixes
// the others on-chain and brings one new flip; night 3 accepts the known flips (trustgate accept) and, with --fail-on
// new, exits 0; night 4 brings another new flip and exits 3.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainIdOf } from "../../src/config/chains";
import { DEFAULT_TRUST_ENCODING, sybilSeverityCode, tierCode, tierForScore } from "../../src/config/encodings";
import { main } from "../../src/cli/main";
import { readDriftState } from "../../src/drift/state/read";
import type { DriftReport, DriftRow } from "../../src/drift/types";
import { type EmbeddedDriftEnvironment, startEmbeddedDriftEnvironment } from "../../src/harness/devnet/embedded-drift";
import { withChanges } from "../drift/state/support";
import { capturedIo } from "../support/captured-io";

const HOUR = 3600_000;
const T1 = new Date(Math.floor(Date.now() / 1000) * 1000);
let clock = T1;

let env: EmbeddedDriftEnvironment;
let dir: string;
beforeAll(async () => {
  env = await startEmbeddedDriftEnvironment({
    size: 400,
    seed: 11,
    now: T1,
    faults: false,
    delisted: 0,
    encoding: DEFAULT_TRUST_ENCODING,
    service: { now: () => clock },
  });
  dir = mkdtempSync(join(tmpdir(), "since-last-night-"));
});
afterAll(async () => {
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const file = (name: string) => join(dir, name);

/** One night through `trustgate drift`, its outputs named after it. */
async function night(name: string, extra: readonly string[] = []): Promise<{ code: number; stdout: string; report: DriftReport }> {
  const captured = capturedIo();
  const code = await main(
    [
      "drift",
      ...["--rpc", env.rpcUrl, "--api", env.apiUrl, "--issuer", env.issuer, "--jwks", env.jwksUrl, "--oracle", env.oracle],
      ...["--all", "--state", file("state.jsonl"), "--events-from", "0", "--rate", "1000000"],
      ...["--audit-confidence", "0.9", "--audit-lie-rate", "0.05"],
      ...["--json", file(`${name}.json`), "--markdown", file(`${name}.md`), "--html", file(`${name}.html`), "--quiet"],
      ...extra,
    ],
    captured.io,
    { now: () => clock },
  );
  if (code !== 0 && code !== 3) throw new Error(`night ${name} exited ${code}: ${captured.stderr()}`);
  return { code, stdout: captured.stdout(), report: JSON.parse(readFileSync(file(`${name}.json`), "utf8")) as DriftReport };
}

const agentOf = (row: Pick<DriftRow, "chain" | "agentId" | "registry">) => `${row.chain}:${row.agentId}:${row.registry}`;
const keyOf = (row: Pick<DriftRow, "chain" | "agentId" | "registry">) => `${row.chain}:${row.registry}:${row.agentId}`;
const flips = (report: DriftReport) => report.agents.filter((row) => row.decision.flipped);

/** The values a row's side holds, as the oracle stores them. */
type SideValues = { readonly score: number; readonly tier: Parameters<typeof tierCode>[0]; readonly sybilSeverity: string };

/** Publishes on-chain, for each row, the values `side` picks from it, dated `at`. */
async function publishRows(rows: readonly DriftRow[], side: (row: DriftRow) => SideValues, at: Date): Promise<void> {
  await env.simulation.publish(
    rows.map((row) => {
      const values = side(row);
      return {
        agentId: BigInt(row.agentId),
        chainId: chainIdOf(row.chain),
        registry: row.registry,
        score: values.score,
        tier: tierCode(values.tier),
        sybilSeverity: sybilSeverityCode(
          values.sybilSeverity === "none" ? null : (values.sybilSeverity as Parameters<typeof sybilSeverityCode>[0]),
        ),
        updatedAt: at,
      };
    }),
  );
}

/** Publishes on-chain, for each row, the data its verified attestation carries (the chain catches up). */
const catchUp = (rows: readonly DriftRow[], at: Date) =>
  publishRows(rows, (row) => ({ ...row.attested!, tier: tierForScore(row.attested!.score) }), at);

/**
 * Publishes again, for each row, the on-chain record it has, dated `at`: the same values, so an in-sync row stays in
 * sync and a drifted one drifted, but not stale on the next night whatever the time of day the test runs at (the
 * snapshot's records are dated at its nightly write time).
 */
const redate = (rows: readonly DriftRow[], at: Date) =>
  publishRows(rows, (row) => ({ ...row.onchain!, tier: row.onchain!.tier as SideValues["tier"] }), at);

/** An in-sync agent far above the threshold, whose service score now drops below it: a new pass→fail flip. */
function dropBelowThreshold(report: DriftReport, taken: ReadonlySet<string>): DriftRow {
  const row = report.agents.find(
    (r) => r.status === "in-sync" && r.chain !== "polygon" && r.onchain!.score >= 60 && r.onchain!.score <= 80 && !taken.has(keyOf(r)),
  );
  if (!row) throw new Error("no in-sync agent to flip");
  return row;
}

async function serveDrop(row: DriftRow, at: Date): Promise<void> {
  env.service.setPopulation(withChanges(env.served, new Map([[keyOf(row), { score: 40, updatedAt: at }]])));
}

describe("since last night, across nights of one --state file", () => {
  let night1: DriftReport;
  let kept: DriftRow;
  let fresh: DriftRow;

  it("night 1 (a new state): sinceLastNight has no previous night, and every problem is new", async () => {
    const { code, report } = await night("night1");
    night1 = report;
    expect(code).toBe(3);
    expect(flips(report).length).toBeGreaterThan(1);
    expect(report.sinceLastNight).toMatchObject({ previousNight: null, failOn: "any", persisting: [], resolved: [], accepted: [] });
    expect(report.sinceLastNight!.new.map((p) => p.agent).sort()).toEqual(flips(report).map(agentOf).sort());
    expect(readDriftState(file("state.jsonl"))!.header.problems).toHaveLength(flips(report).length);
  });

  it("night 2: one flip persists (2 nights), one is new, the others resolved — in the JSON, the Markdown and the page", async () => {
    const old = flips(night1);
    kept = old.find((row) => row.status === "drifted" && row.chain !== "polygon")!;
    const fixed = old.filter((row) => row !== kept);
    clock = new Date(T1.getTime() + 24 * HOUR);
    await env.simulation.setTime(clock);
    await catchUp(fixed, new Date(clock.getTime() - HOUR));
    fresh = dropBelowThreshold(night1, new Set(old.map(keyOf)));
    await redate([kept, fresh], new Date(clock.getTime() - 3 * HOUR));
    await serveDrop(fresh, new Date(clock.getTime() - 2 * HOUR));

    const { code, report, stdout } = await night("night2");
    expect(code).toBe(3);
    expect(stdout).toMatch(/^ {2}since last night: 1 new, 1 persisting, \d+ resolved, 0 accepted \(compared with the night started /m);
    expect(stdout).toContain(`new: ${agentOf(fresh)} pass-to-fail (drifted)`);
    expect(stdout).toMatch(/^ {2}what to do: {7}drifted: tell the oracle's publisher/m);
    const since = report.sinceLastNight!;
    expect(since.previousNight).toBe(T1.toISOString());
    expect(since.new.map((p) => [p.agent, p.problem, p.nights])).toEqual([[agentOf(fresh), "pass-to-fail", 1]]);
    expect(since.persisting.map((p) => [p.agent, p.problem, p.nights, p.since])).toEqual([
      [agentOf(kept), problemOfFlip(kept), 2, T1.toISOString()],
    ]);
    expect(since.resolved.map((p) => p.agent).sort()).toEqual(fixed.map(agentOf).sort());
    expect(since.resolved.every((p) => p.status !== "error" && p.status !== "missing-attestation")).toBe(true);
    expect(since.accepted).toEqual([]);
    expect(since.new[0]!.action).toMatch(/oracle's publisher/);
    expect(report.actions?.drifted).toMatch(/oracle's publisher/);

    const markdown = readFileSync(file("night2.md"), "utf8");
    const section = markdown.slice(markdown.indexOf("## Since last night"), markdown.indexOf("| | |"));
    expect(section).toContain(`| new | \`${agentOf(fresh)}\` | pass-to-fail | drifted | 1 |`);
    expect(section).toContain(`| persisting | \`${agentOf(kept)}\` | ${problemOfFlip(kept)} | drifted | 2 |`);
    expect(section.match(/^\| new \|/gm)).toHaveLength(1);
    expect(section.match(/^\| persisting \|/gm)).toHaveLength(1);
    expect(markdown).toContain("## What to do");

    const page = readFileSync(file("night2.html"), "utf8");
    const pageSection = page.slice(
      page.indexOf('<section id="since-last-night"'),
      page.indexOf("</section>", page.indexOf('id="since-last-night"')),
    );
    expect(pageSection).toContain(`<tr class="since-new" data-agent="${agentOf(fresh)}">`);
    expect(pageSection).toContain(`<tr class="since-persisting" data-agent="${agentOf(kept)}">`);
    expect(pageSection.match(/class="since-new"/g)).toHaveLength(1);
    expect(pageSection.match(/class="since-persisting"/g)).toHaveLength(1);
    // Under the verdict, before the counts.
    expect(page.indexOf('id="since-last-night"')).toBeGreaterThan(page.indexOf('id="verdict"'));
    expect(page.indexOf('id="since-last-night"')).toBeLessThan(page.indexOf('id="counts"'));
  });

  it("night 3: the known flips accepted (trustgate accept) are still reported, and with the default --fail-on any still exit 3", async () => {
    const written = await main(
      [
        "accept",
        "--from",
        file("night2.json"),
        "--reason",
        "oracle unwritten, ticket OPS-12",
        "--until",
        "2099-12-31",
        "--to",
        file("baseline.jsonl"),
      ],
      { stdout: { write: () => true }, stderr: { write: () => true }, env: {}, isTTY: false },
    );
    expect(written).toBe(0);
    expect(readFileSync(file("baseline.jsonl"), "utf8").trim().split("\n")).toHaveLength(2);
    clock = new Date(T1.getTime() + 48 * HOUR);
    await env.simulation.setTime(clock);

    const plain = await night("night3-any", ["--accept", file("baseline.jsonl")]);
    expect(plain.code).toBe(3); // --fail-on any (the default): accepted problems still exit 3
    expect(plain.report.sinceLastNight!.accepted.map((p) => p.agent).sort()).toEqual([agentOf(fresh), agentOf(kept)].sort());
  });

  it("night 4: with --accept and --fail-on new, exit 0 while nothing is new, and 3 once a new flip appears", async () => {
    clock = new Date(T1.getTime() + 72 * HOUR);
    await env.simulation.setTime(clock);
    const quiet = await night("night4", ["--accept", file("baseline.jsonl"), "--fail-on", "new"]);
    expect(quiet.code).toBe(0);
    expect(quiet.report.verdict).toMatchObject({ exitCode: 0 });
    expect(quiet.report.verdict.reason).toMatch(/^no new problem since the night before: 2 gate decisions flip, 2 persisting or accepted/);
    expect(quiet.report.sinceLastNight!.new).toEqual([]);
    expect(quiet.report.sinceLastNight!.accepted.map((p) => [p.agent, p.reason]).sort()).toEqual(
      [agentOf(fresh), agentOf(kept)].sort().map((agent) => [agent, "oracle unwritten, ticket OPS-12"]),
    );

    // Night 1's in-sync agents: by now every record is older than --max-age (stale-onchain), its decision unchanged.
    const another = dropBelowThreshold(night1, new Set([...flips(night1).map(keyOf), keyOf(fresh)]));
    clock = new Date(T1.getTime() + 96 * HOUR);
    await env.simulation.setTime(clock);
    env.service.setPopulation(
      withChanges(
        env.served,
        new Map([
          [keyOf(fresh), { score: 40, updatedAt: new Date(T1.getTime() + 22 * HOUR) }],
          [keyOf(another), { score: 40, updatedAt: new Date(clock.getTime() - HOUR) }],
        ]),
      ),
    );
    const loud = await night("night5", ["--accept", file("baseline.jsonl"), "--fail-on", "new"]);
    expect(loud.code).toBe(3);
    expect(loud.report.sinceLastNight!.new.map((p) => p.agent)).toEqual([agentOf(another)]);
    expect(loud.report.verdict.reason).toMatch(/^1 new problem since the night before; 2 persisting or accepted \(--fail-on new\)$/);
  });

  it("an expired baseline entry accepts nothing, and the report says so", async () => {
    writeFileSync(
      file("expired.jsonl"),
      `${JSON.stringify({ agent: agentOf(kept), problem: problemOfFlip(kept), reason: "was known", until: "2001-01-01" })}\n`,
    );
    clock = new Date(T1.getTime() + 120 * HOUR);
    await env.simulation.setTime(clock);
    const { code, report } = await night("night6", ["--accept", file("expired.jsonl"), "--fail-on", "new"]);
    expect(code).toBe(0); // nothing new tonight: the expired entry's problem persists
    expect(report.sinceLastNight!.accepted).toEqual([]);
    expect(report.sinceLastNight!.expired).toEqual([
      { agent: agentOf(kept), problem: problemOfFlip(kept), reason: "was known", until: "2001-01-02T00:00:00.000Z" },
    ]);
    expect(report.sinceLastNight!.persisting.map((p) => p.agent)).toContain(agentOf(kept));
    expect(readFileSync(file("night6.md"), "utf8")).toMatch(/EXPIRED baseline entry/);
  });
});

function problemOfFlip(row: DriftRow): "pass-to-fail" | "fail-to-pass" {
  return row.decision.onchain ? "pass-to-fail" : "fail-to-pass";
}
