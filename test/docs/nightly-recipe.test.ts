// The nightly recipe of docs/drift.md ("Every night"), run as written against the embedded drift environment (a local
// Base simulation and the local signing service, loopback only): the GitHub Actions workflow's shell steps, and the
// cron line, each for two nights. Only the endpoints and the program are substituted: the service's and the chain's
// URLs by the local ones, `npx trustgate` by this repository's command line (from its sources, as `npm start` runs it),
// given `--rate 1000000`: the local service has no rate limit, and the client's pacing (300 signed fetches a minute
// with a key) would make the four nights take minutes.
// The workflow is parsed with js-yaml (a pinned devDependency; not a dependency of the kit), so a workflow that is
// not valid YAML fails here too.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MARKDOWN_SUMMARY_MAX_BYTES } from "../../src/cli/format-markdown";
import { formatVerdict } from "../../src/cli/format-summary";
import type { DriftReport } from "../../src/drift/types";
import { type EmbeddedDriftEnvironment, startEmbeddedDriftEnvironment } from "../../src/harness/devnet/embedded-drift";
import { type ChildRun, runChild } from "../support/child-run";
import { docBlocks } from "../support/doc-blocks";

const ROOT = resolve(__dirname, "../..");
const MARK = "run by test/docs/nightly-recipe.test.ts";
const RECIPE = docBlocks("docs/drift.md").filter((block) => block.skip?.includes(MARK));
const WORKFLOW = RECIPE.find((block) => block.lang === "yaml");
const CRON = RECIPE.find((block) => block.lang === "sh");
const CLI = `${join(ROOT, "node_modules/.bin/tsx")} --conditions=trustgate-source ${join(ROOT, "src/cli/bin.ts")}`;

/** One step of the workflow, as the fields the test reads. */
interface WorkflowStep {
  readonly name?: string;
  readonly id?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly if?: string;
  readonly env?: Record<string, string>;
  readonly with?: Record<string, unknown>;
}

const { load } = createRequire(__filename)("js-yaml") as { load(text: string): unknown };
const STEPS = (load(WORKFLOW?.code ?? "") as { jobs: Record<string, { steps: WorkflowStep[] }> } | undefined)?.jobs.drift?.steps ?? [];
const stepNamed = (name: string) => STEPS.find((step) => step.name === name);

/** The recipe's text with the real endpoints and `npx trustgate` replaced by the local ones. */
function local(script: string): string {
  return script
    .replaceAll('"$BASE_RPC_URL"', `"${env.rpcUrl}"`)
    .replaceAll("https://rnwy.com", env.apiUrl)
    .replaceAll("npx trustgate drift", `${CLI} drift --rate 1000000`);
}

/** Runs a script with bash in `cwd`, with the variables given. */
const bash = (script: string, cwd: string, vars: Record<string, string> = {}): Promise<ChildRun> =>
  runChild("bash", ["-e", "-c", script], cwd, { timeoutMs: 300_000, env: vars });

/** The secret the workflow and the crontab give: any key is accepted by the local service. */
const API_KEY = { TRUSTGATE_API_KEY: "local-nightly-key" };

const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8")) as DriftReport;

let env: EmbeddedDriftEnvironment;
let dir: string;
beforeAll(async () => {
  env = await startEmbeddedDriftEnvironment({ size: 1000, seed: 7, faults: false });
  dir = mkdtempSync(join(tmpdir(), "trustgate-nightly-"));
}, 300_000);
afterAll(async () => env?.close());

describe("docs/drift.md's nightly recipe", () => {
  it("has a workflow and a cron line marked as run here", () => {
    expect(WORKFLOW).toBeDefined();
    expect(CRON).toBeDefined();
    expect(stepNamed("Drift")?.run).toContain(
      'npx trustgate drift --rpc "$BASE_RPC_URL" --api https://rnwy.com --all --state drift-state.jsonl --max-duration 50m --json report.json --markdown report.md --html report.html',
    );
    // The state: the newest restored, saved under a key unique to the run.
    const restore = STEPS.find((step) => step.uses?.startsWith("actions/cache/restore@"));
    const save = STEPS.find((step) => step.uses?.startsWith("actions/cache/save@"));
    expect(restore?.with).toMatchObject({ path: "drift-state.jsonl", "restore-keys": "drift-state-" });
    expect(save?.with).toMatchObject({ path: "drift-state.jsonl" });
    expect(String(save?.with?.key)).toMatch(/^drift-state-\$\{\{ github\.run_id \}\}/);
    // The reports upload, and the alert is decided last, whatever the drift step found.
    const upload = STEPS.findIndex((step) => step.uses?.startsWith("actions/upload-artifact@"));
    const alert = STEPS.findIndex((step) => step.name === "Alert on the exit code");
    expect(STEPS[upload]?.if).toBe("always()");
    expect(String(STEPS[upload]?.with?.path)).toContain("report.html");
    expect(upload).toBeLessThan(alert);
    expect(alert).toBe(STEPS.length - 1);
    expect(STEPS[alert]?.env?.CODE).toBe("${{ steps.drift.outputs.code }}");
  });

  it("runs the workflow's shell steps for two nights: reports, step summary, an incremental second night with its history", async () => {
    const work = join(dir, "actions");
    mkdirSync(work);
    // Every shell step but the install (`npm ci`, which installs the operator's project; here the kit is the repository).
    const scripts = STEPS.filter((step) => step.run !== undefined && step.run.trim() !== "npm ci");
    expect(scripts.map((step) => step.name)).toEqual(["Drift", "Summary", "Alert on the exit code"]);
    const nights: { report: DriftReport; code: number; summary: string; alert: ChildRun }[] = [];
    for (const night of [1, 2]) {
      const output = join(work, `github-output-${night}`);
      const summaryFile = join(work, `step-summary-${night}.md`);
      writeFileSync(output, "");
      writeFileSync(summaryFile, "");
      const vars = { GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summaryFile, ...API_KEY };
      const drift = await bash(local(stepNamed("Drift")!.run!), work, vars);
      expect(drift.code, drift.stderr).toBe(0); // the step records the code instead of failing
      const code = Number(/^code=(\d+)$/m.exec(readFileSync(output, "utf8"))?.[1]);
      expect((await bash(stepNamed("Summary")!.run!, work, vars)).code).toBe(0);
      const alert = await bash(stepNamed("Alert on the exit code")!.run!, work, { CODE: String(code) });
      for (const report of ["report.json", "report.md", "report.html"]) expect(existsSync(join(work, report))).toBe(true);
      const markdown = readFileSync(join(work, "report.md"), "utf8");
      nights.push({ report: readJson(join(work, "report.json")), code, summary: readFileSync(summaryFile, "utf8"), alert });
      // The step summary is the Markdown summary: bounded whatever the population, naming where every row is.
      expect(nights.at(-1)!.summary).toBe(markdown);
      expect(Buffer.byteLength(markdown)).toBeLessThanOrEqual(MARKDOWN_SUMMARY_MAX_BYTES);
      expect(markdown.split("\n")[2]).toBe(`**${formatVerdict(nights.at(-1)!.report)}**`);
      expect(markdown).toContain("## Decision flips and invalid attestations");
      expect(markdown).toMatch(/ are in the JSON report `report\.json` and the page `report\.html`\./);
      expect(readFileSync(join(work, "report.html"), "utf8")).toMatch(/^<!doctype html>/i);
    }
    const [first, second] = nights as [(typeof nights)[0], (typeof nights)[0]];
    for (const night of nights) {
      expect(night.code).toBe(night.report.verdict.exitCode);
      expect(night.alert.code).toBe(night.code === 0 ? 0 : 1);
    }
    expect(first.report.summary.triage?.state?.fromState).toBe(0);
    expect(second.report.summary.triage?.state?.fromState).toBeGreaterThan(0);
    expect(second.report.summary.triage!.signedFetches).toBeLessThan(first.report.summary.triage!.signedFetches);
    expect(second.report.state?.history).toHaveLength(2);
    expect(second.report.state?.history.map((n) => n.exitCode)).toEqual([first.code, second.code]);
  }, 600_000);

  it("maps each exit code to the documented outcome: 0 passes, 2, 3, 4 and 130 fail the job with their reason", async () => {
    const script = stepNamed("Alert on the exit code")!.run!;
    const outcomes: Record<string, { code: number | null; stdout: string }> = {};
    for (const code of ["0", "2", "3", "4", "130", ""]) {
      const { code: status, stdout } = await bash(script, dir, { CODE: code });
      outcomes[code] = { code: status, stdout: stdout.trim() };
    }
    expect(outcomes["0"]).toEqual({ code: 0, stdout: "no drift" });
    expect(outcomes["3"]?.code).toBe(1);
    expect(outcomes["3"]?.stdout).toMatch(/^::error::drift: .*\(exit 3\)/);
    expect(outcomes["4"]?.code).toBe(1);
    expect(outcomes["4"]?.stdout).toMatch(/^::error::could not verify.*\(exit 4\)/);
    expect(outcomes["2"]?.code).toBe(1);
    expect(outcomes["2"]?.stdout).toMatch(/^::error::configuration error \(exit 2\)/);
    expect(outcomes["130"]?.code).toBe(1);
    expect(outcomes["130"]?.stdout).toMatch(/^::error::interrupted \(exit 130\)/);
    // No code at all (the drift step never wrote one): still an alert, never green.
    expect(outcomes[""]).toEqual({ code: 1, stdout: "::error::the drift step failed (exit none)" });
  });

  it("runs the cron line for two nights: dated reports beside the state, a mail when the exit code is not 0", async () => {
    const line = CRON!.code.trim();
    expect(line.split("\n")).toHaveLength(1);
    // A crontab line: five time fields, then the command, which cron runs with /bin/sh after turning `\%` into `%`.
    const fields = /^(\S+\s+){5}(.*)$/.exec(line);
    expect(fields?.[0]).toMatch(/^17 4 \* \* \* /);
    const command = local(fields![2]!.replaceAll("\\%", "%"));
    const home = join(dir, "cron-home");
    const bin = join(dir, "cron-bin");
    mkdirSync(join(home, "trust-drift/reports"), { recursive: true });
    mkdirSync(bin);
    // `date` answers the night's date; `mail` keeps what it was given (subject, then body).
    writeFileSync(join(bin, "date"), '#!/bin/sh\necho "$NIGHT"\n');
    writeFileSync(join(bin, "mail"), '#!/bin/sh\n{ echo "$2"; cat; } > "$HOME/mail-$NIGHT"\n');
    for (const file of ["date", "mail"]) chmodSync(join(bin, file), 0o755);
    const codes: number[] = [];
    for (const night of ["2026-01-01", "2026-01-02"]) {
      const run = await runChild("/bin/sh", ["-c", command], home, {
        timeoutMs: 300_000,
        env: { ...API_KEY, HOME: home, NIGHT: night, PATH: `${bin}:${process.env.PATH ?? ""}` },
      });
      expect(run.code, run.stderr).toBe(0);
      const reports = join(home, "trust-drift/reports", night);
      for (const ext of ["json", "md", "html"]) expect(existsSync(`${reports}.${ext}`)).toBe(true);
      const report = readJson(`${reports}.json`);
      codes.push(report.verdict.exitCode);
      const mail = join(home, `mail-${night}`);
      if (report.verdict.exitCode === 0) expect(existsSync(mail)).toBe(false);
      else {
        const [subject, ...body] = readFileSync(mail, "utf8").split("\n");
        expect(subject).toBe(`trustgate drift: exit ${report.verdict.exitCode}`);
        expect(body.join("\n")).toContain(readFileSync(`${reports}.md`, "utf8").trim());
      }
    }
    expect(existsSync(join(home, "trust-drift/drift-state.jsonl"))).toBe(true);
    const second = readJson(join(home, "trust-drift/reports/2026-01-02.json"));
    expect(second.summary.triage?.state?.fromState).toBeGreaterThan(0);
    expect(second.state?.history.map((n) => n.exitCode)).toEqual(codes);
  }, 600_000);
});
