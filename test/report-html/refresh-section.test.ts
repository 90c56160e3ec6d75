/**
 * The page's "Refreshes" section (`trustgate drift --html page.html --refresh-report refresh.json`): the refresh
 * report read back (`readNightRefreshes`) and written as markup. What was stored, skipped (why), refused (the
 * contract's error) and what it cost; the rows that need a look first; at most PAGE_REFRESHES_LISTED rows; outside
 * text escaped; a file that is not a refresh report, or `--refresh-report` without `--html`, is a usage error before
 * the scan.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { main } from "../../src/cli/main.js";
import type { DriftReport } from "../../src/drift/types.js";
import { InvalidArgumentError } from "../../src/errors.js";
import { readNightRefreshes } from "../../src/refresh/night-refreshes.js";
import { PAGE_REFRESHES_LISTED, refreshSection } from "../../src/report-html/refresh-section.js";
import { passToFail, report } from "../cli/report-fixture.js";
import { HOSTILE, refreshReport, TRANSACTION } from "./refresh-report-fixture.js";

const read = (value: unknown) => readNightRefreshes(JSON.stringify(value), "refresh.json");

describe("readNightRefreshes", () => {
  test("reads what each due agent became, the skipped ones and the cost", () => {
    const refreshes = read(refreshReport());
    expect(refreshes).toMatchObject({ mode: "sent", plannedAt: "2026-11-22T04:40:00.000Z", exitCode: 3 });
    expect(refreshes.due.map((d) => [d.agent, d.outcome, d.error])).toEqual([
      ["base:1:erc8004", "stored", null],
      ["base:2:erc8004", "refused", `RevokedSigningKey("rnwy-trust-v1") ${HOSTILE}`],
      ["base:3:erc8004", "not-fetched", "the service answered HTTP 503"],
    ]);
    expect(refreshes.skipped).toEqual([{ agent: `base:9:${HOSTILE}`, skip: "not-due", detail: "no push rule applies" }]);
    expect(refreshes.cost).toEqual({ transactions: 1, gasUsed: "123456", costWei: "1500000000000000" });
  });

  test("refuses what is not a refresh report, naming the field", () => {
    expect(() => readNightRefreshes("{", "refresh.json")).toThrow(InvalidArgumentError);
    const driftReport = report([passToFail("1")]);
    expect(() => read(driftReport)).toThrow(/refresh\.json is not a refresh report: mode: /);
    const report2 = refreshReport();
    (report2.sent!.totals as { costWei: string }).costWei = "1e18";
    expect(() => read(report2)).toThrow(/sent\.totals\.costWei: a decimal integer/);
    const long = refreshReport();
    long.plan.skipped[0]!.detail = "x".repeat(2_001);
    expect(() => read(long)).toThrow(/plan\.skipped\[0\]\.detail/);
  });
});

describe("refreshSection", () => {
  test("says what was stored, refused, not fetched and skipped, and the cost in ETH; refused rows first, with the error", () => {
    const html = refreshSection(read(refreshReport()));
    expect(html).toMatch(/^<section id="refreshes"/);
    expect(html).toContain("<strong>1 stored</strong>, 0 already current, 1 refused, 1 not fetched, 0 no-op, 1 skipped;");
    expect(html).toContain("1 transaction, gas 123,456, cost 0.0015 ETH");
    expect(html).toContain("planned 2026-11-22T04:40:00.000Z, exit 3");
    const kinds = [...html.matchAll(/<tr data-agent="[^"]*"><td>([^<]*)<\/td>/g)].map((m) => m[1]);
    expect(kinds).toEqual(["refused", "not-fetched", "stored", "skipped: not-due"]);
    expect(html).toContain("RevokedSigningKey(&quot;rnwy-trust-v1&quot;)");
    expect(html).toContain(`decision-flip, score-change (${TRANSACTION})`);
  });

  test("writes outside text as text: no element made from it", () => {
    const html = refreshSection(read(refreshReport()));
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<script");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });

  test("a dry run says nothing was sent and lists the due agents", () => {
    const html = refreshSection(read(refreshReport({ mode: "dry-run" })));
    expect(html).toContain("<strong>dry run</strong>: 3 due, 1 skipped; nothing sent");
    expect([...html.matchAll(/<td>due<\/td>/g)]).toHaveLength(3);
  });

  test(`lists at most ${PAGE_REFRESHES_LISTED} rows, then how many more the refresh report holds`, () => {
    const html = refreshSection(read(refreshReport({ dueCount: PAGE_REFRESHES_LISTED })));
    expect([...html.matchAll(/<tr data-agent=/g)]).toHaveLength(PAGE_REFRESHES_LISTED);
    expect(html).toContain("4 more in the refresh report.");
  });
});

describe("trustgate drift --html --refresh-report", () => {
  const REAL = ["drift", "--rpc", "http://127.0.0.1:9", "--api", "http://127.0.0.1:9", "--agents", "base:1"];
  async function drift(args: string[]) {
    const err: string[] = [];
    let scanned = false;
    const io = { stdout: { write: () => true }, stderr: { write: (s: string) => err.push(s) }, env: {}, isTTY: false };
    const runDrift = async (): Promise<DriftReport> => {
      scanned = true;
      return report([passToFail("1")]);
    };
    const code = await main([...REAL, ...args], io, { runDrift, now: () => new Date("2026-11-22T12:00:00Z") });
    return { code, stderr: err.join(""), scanned };
  }

  test("shows the night's refreshes on the page, under the changes since last night", async () => {
    const dir = mkdtempSync(join(tmpdir(), "trustgate-refresh-page-"));
    writeFileSync(join(dir, "refresh.json"), JSON.stringify(refreshReport()));
    const { code, stderr } = await drift(["--html", join(dir, "page.html"), "--refresh-report", join(dir, "refresh.json")]);
    expect(code, stderr).toBe(3);
    const html = readFileSync(join(dir, "page.html"), "utf8");
    expect(html).toContain(refreshSection(read(refreshReport())));
    expect(html.indexOf('id="since-last-night"')).toBeLessThan(html.indexOf('id="refreshes"'));
    expect(html.indexOf('id="refreshes"')).toBeLessThan(html.indexOf('id="statuses"'));
  });

  test("without --refresh-report the page has no such section", async () => {
    const dir = mkdtempSync(join(tmpdir(), "trustgate-refresh-page-"));
    await drift(["--html", join(dir, "page.html")]);
    expect(readFileSync(join(dir, "page.html"), "utf8")).not.toContain('id="refreshes"');
  });

  test("is a usage error before the scan: without --html, an unreadable file, a file that is not a refresh report", async () => {
    const dir = mkdtempSync(join(tmpdir(), "trustgate-refresh-page-"));
    writeFileSync(join(dir, "drift.json"), JSON.stringify(report([passToFail("1")])));
    const page = join(dir, "page.html");
    const withoutHtml = await drift(["--refresh-report", join(dir, "drift.json")]);
    expect([withoutHtml.code, withoutHtml.scanned]).toEqual([2, false]);
    expect(withoutHtml.stderr).toContain("--refresh-report shows the night's refreshes on the page: give --html <file> with it");
    const missing = await drift(["--html", page, "--refresh-report", join(dir, "absent.json")]);
    expect([missing.code, missing.scanned]).toEqual([2, false]);
    expect(missing.stderr).toContain(`--refresh-report ${join(dir, "absent.json")}: cannot read the refresh report`);
    const wrong = await drift(["--html", page, "--refresh-report", join(dir, "drift.json")]);
    expect([wrong.code, wrong.scanned]).toEqual([2, false]);
    expect(wrong.stderr).toContain(`--refresh-report ${join(dir, "drift.json")} is not a refresh report`);
  });
});
