/**
 * The HTML page in a real browser: Debian's Chromium (`/usr/bin/chromium`, installed by `.ci/run`) driven by
 * playwright-core opens the page a devnet run wrote beside its JSON report, and the page shows the JSON's numbers,
 * filters the rows from the tier matrix, sorts them, and asks the network for nothing; a page written from a report
 * whose agents carry hostile names (the devnet accepts only known registries and chains) shows them as text; after two
 * nights with `--state` it shows the nights before. Screenshots of the first views are kept under
 * `test-output/report-html/`; `UPDATE_SCREENSHOT=1` also copies the devnet run's to `docs/images/drift-report.png`, the
 * README's.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { main } from "../../src/cli/main.js";
import { verdictOf } from "../../src/drift/verdict.js";
import { DRIFT_STATUS_MEANINGS, DRIFT_STATUSES, type DriftReport, type DriftRow, type DriftStatus } from "../../src/drift/types.js";
import { errorRow, report as fixtureReport, row as fixtureRow } from "../cli/report-fixture.js";
import { type EmbeddedDriftEnvironment, startEmbeddedDriftEnvironment } from "../../src/harness/devnet/embedded-drift.js";

const CHROMIUM = "/usr/bin/chromium";
const HAS_CHROMIUM = existsSync(CHROMIUM);
const OUTPUT = join(__dirname, "../../test-output/report-html");
/** The README's screenshot of the page: this first view, copied there with `UPDATE_SCREENSHOT=1`. */
const README_SCREENSHOT = join(__dirname, "../../docs/images/drift-report.png");
const HOSTILE = '"><img src=x onerror=alert(1)></script><script>alert(2)</script>';

const suiteName = HAS_CHROMIUM
  ? "the HTML page of a devnet run, in Chromium"
  : "the HTML page of a devnet run, in Chromium (skipped: /usr/bin/chromium is absent; apt-get install -y chromium)";

/** A row's tier on one side, as the page's matrix names it. */
const tierOf = (side: { readonly tier: string } | null) => side?.tier ?? "(none)";

describe.skipIf(!HAS_CHROMIUM)(suiteName, () => {
  let env: EmbeddedDriftEnvironment;
  let browser: Browser;
  let page: Page;
  let report: DriftReport;
  const requests: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    env = await startEmbeddedDriftEnvironment({ size: 60, faults: false });
    const json = join(OUTPUT, "report.json");
    const html = join(OUTPUT, "report.html");
    const io = { stdout: { write: () => true }, stderr: { write: () => true }, env: { CI: "true" }, isTTY: false };
    const args = ["drift", "--rpc", env.rpcUrl, "--api", env.apiUrl, "--oracle", env.oracle, "--all", "--rate", "10000"];
    await main([...args, "--json", json, "--html", html, "--quiet"], io);
    report = JSON.parse(readFileSync(json, "utf8")) as DriftReport;

    browser = await chromium.launch({ executablePath: CHROMIUM });
    page = await browser.newPage({ viewport: { width: 1280, height: 1100 } });
    page.on("request", (request) => requests.push(request.url()));
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("dialog", (dialog) => {
      problems.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    await page.goto(`file://${html}`);
    await page.waitForSelector("html[data-ready=true]");
    await page.screenshot({ path: join(OUTPUT, "first-view.png") });
    if (process.env.UPDATE_SCREENSHOT === "1") copyFileSync(join(OUTPUT, "first-view.png"), README_SCREENSHOT);
  });

  afterAll(async () => {
    await browser?.close();
    await env?.close();
  });

  test("the page ran without an error or a Content-Security-Policy violation", () => {
    expect(report.agents.length).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });

  test("shows the JSON report's verdict, counts per status, flips and row count", async () => {
    const verdict = verdictOf(report);
    expect(await page.textContent("#verdict-code")).toBe(`exit ${verdict.exitCode}`);
    expect(await page.textContent("#verdict-reason")).toBe(verdict.reason);
    for (const status of DRIFT_STATUSES) {
      expect(await page.textContent(`#counts li[data-status="${status}"] .count`), status).toBe(String(report.summary.byStatus[status]));
    }
    const { passToFail, failToPass } = report.summary.flips;
    expect(await page.textContent("#flip-counts")).toBe(`${passToFail} pass→fail, ${failToPass} fail→pass`);
    expect(await page.getAttribute("#rows-count", "data-shown")).toBe(String(report.agents.length));
    expect(await page.isVisible("#history-section"), "no --state, no nights").toBe(false);
  });

  test("defines each status it shows beside its count, as the status table does", async () => {
    const shown = await page.$$eval("#counts li", (items) => items.map((item) => item.dataset.status!));
    expect(shown).toEqual([...DRIFT_STATUSES]);
    for (const status of shown) {
      expect(await page.textContent(`#counts li[data-status="${status}"] .meaning`), status).toBe(
        DRIFT_STATUS_MEANINGS[status as DriftStatus],
      );
    }
  });

  test("clicking a tier matrix cell filters the rows to exactly that transition", async () => {
    const cells = await page.$$eval("#matrix button", (buttons) =>
      buttons.map((b) => ({ onchain: b.dataset.onchain!, attested: b.dataset.attested!, count: Number(b.textContent) })),
    );
    expect(cells.reduce((sum, cell) => sum + cell.count, 0)).toBe(report.agents.length);
    const cell = [...cells].sort((a, b) => a.count - b.count)[0]!;
    const expected = report.agents.flatMap((row: DriftRow, index) =>
      tierOf(row.onchain) === cell.onchain && tierOf(row.attested) === cell.attested ? [String(index)] : [],
    );
    expect(cell.count).toBe(expected.length);
    await page.click(`#matrix button[data-onchain="${cell.onchain}"][data-attested="${cell.attested}"]`);
    expect(await page.getAttribute("#rows-count", "data-shown")).toBe(String(expected.length));
    const shown = await page.$$eval("#table-body .table-row", (rows) => rows.map((row) => row.getAttribute("data-index")!));
    expect(shown).toEqual(expected.slice(0, shown.length));
    expect(shown.length).toBe(Math.min(expected.length, shown.length));
    await page.click("#filter-matrix");
    expect(await page.getAttribute("#rows-count", "data-shown")).toBe(String(report.agents.length));
  });

  test("keeps only the rows on screen in the document, and shows the last ones once scrolled there", async () => {
    const inDocument = () => page.$$eval("#table-body .table-row", (rows) => rows.map((row) => Number(row.getAttribute("data-index"))));
    const first = await inDocument();
    expect(first.length).toBeLessThan(report.agents.length);
    expect(first[0]).toBe(0);
    await page.$eval("#table-view", (view) => view.scrollTo(0, view.scrollHeight));
    await page.waitForSelector(`#table-body .table-row[data-index="${report.agents.length - 1}"]`);
    expect((await inDocument()).length).toBeLessThan(report.agents.length);
    await page.$eval("#table-view", (view) => view.scrollTo(0, 0));
  });

  test("sorting by the on-chain score orders the rows up, then down", async () => {
    const scores = async () =>
      page.$$eval("#table-body .table-row", (rows) =>
        rows
          .map((row) => row.children[2]!.textContent!)
          .filter((text) => text !== "—")
          .map(Number),
      );
    await page.click('#table-head button[data-column="2"]');
    const up = await scores();
    expect(up.length).toBeGreaterThan(1);
    expect(up).toEqual([...up].sort((a, b) => a - b));
    await page.click('#table-head button[data-column="2"]');
    const down = await scores();
    expect(down).toEqual([...down].sort((a, b) => b - a));
    expect(down[0]).toBe(Math.max(...report.agents.flatMap((row) => (row.onchain ? [row.onchain.score] : []))));
  });

  test("shows hostile names as text: no element made from them, nothing run", async () => {
    const dir = join(OUTPUT, "hostile");
    mkdirSync(dir, { recursive: true });
    const html = join(dir, "report.html");
    const hostile = fixtureReport([fixtureRow({ agentId: "1", registry: HOSTILE }), errorRow("2", `the service said ${HOSTILE}`)]);
    const io = { stdout: { write: () => true }, stderr: { write: () => true }, env: {}, isTTY: false };
    const argv = ["drift", "--rpc", "http://127.0.0.1:9", "--api", "http://127.0.0.1:9", "--agents", "base:1", "--html", html, "--quiet"];
    await main(argv, io, { runDrift: async () => hostile });
    const other = await browser.newPage();
    const seen: string[] = [];
    other.on("request", (request) => seen.push(request.url()));
    other.on("dialog", (dialog) => {
      seen.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    await other.goto(`file://${html}`);
    await other.waitForSelector("html[data-ready=true]");
    await other.screenshot({ path: join(dir, "first-view.png") });
    const agents = await other.$$eval("#table-body .table-row", (rows) => rows.map((row) => row.children[1]!.textContent!));
    expect(agents).toContain(`base:1:${HOSTILE}`);
    const reasons = await other.$$eval("#table-body .table-row", (rows) => rows.map((row) => row.children[10]!.textContent!));
    expect(reasons).toContain(`the service said ${HOSTILE}`);
    expect(await other.$$eval("img", (images) => images.length)).toBe(0);
    expect(await other.$$eval("script", (scripts) => scripts.length)).toBe(4);
    expect(seen).toEqual([`file://${html}`]);
    await other.close();
  });

  test("asks the network for nothing: the request log holds the page alone", () => {
    expect(requests).toEqual([expect.stringMatching(/^file:\/\/.*report\.html$/)]);
  });

  describe("after two nights with --state", () => {
    let nightsEnv: EmbeddedDriftEnvironment;
    let nightsPage: Page;
    let second: DriftReport;

    beforeAll(async () => {
      const dir = join(OUTPUT, "nights");
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      nightsEnv = await startEmbeddedDriftEnvironment({ size: 20, faults: false });
      const io = { stdout: { write: () => true }, stderr: { write: () => true }, env: { CI: "true" }, isTTY: false };
      const night = ["drift", "--rpc", nightsEnv.rpcUrl, "--api", nightsEnv.apiUrl, "--oracle", nightsEnv.oracle, "--all"];
      const state = ["--state", join(dir, "state.jsonl"), "--rate", "10000", "--quiet"];
      await main([...night, ...state], io);
      const json = join(dir, "report.json");
      const html = join(dir, "report.html");
      await main([...night, ...state, "--json", json, "--html", html], io);
      second = JSON.parse(readFileSync(json, "utf8")) as DriftReport;
      nightsPage = await browser.newPage({ viewport: { width: 1280, height: 1100 } });
      await nightsPage.goto(`file://${html}`);
      await nightsPage.waitForSelector("html[data-ready=true]");
      await nightsPage.locator("#history-section").screenshot({ path: join(dir, "nights.png") });
    });

    afterAll(async () => {
      await nightsPage?.close();
      await nightsEnv?.close();
    });

    /** The numbers table under one night chart: its header's series labels, and per night its cells. */
    const numbersOf = (chart: string) =>
      nightsPage.$eval(`#history [data-chart="${chart}"] table.night-values`, (table) => ({
        series: [...table.querySelectorAll("thead th")].slice(1).map((th) => th.textContent!),
        nights: [...table.querySelectorAll("tbody tr")].map((tr) => [...tr.children].map((cell) => cell.textContent!)),
      }));

    test("the nights' section is shown, with a chart for each measure, each series drawn from both nights", async () => {
      const history = second.state!.history;
      expect(history).toHaveLength(2);
      expect(await nightsPage.isVisible("#history-section")).toBe(true);
      expect(await nightsPage.$$eval("#history .night-chart canvas", (canvases) => canvases.length)).toBe(3);

      const statuses = await numbersOf("statuses");
      expect(statuses.series).toEqual([...DRIFT_STATUSES]);
      expect(statuses.nights).toEqual(history.map((n) => [n.finishedAt, ...DRIFT_STATUSES.map((status) => String(n.statuses[status]))]));
      const flips = await numbersOf("flips");
      expect(flips.series).toEqual(["pass→fail", "fail→pass"]);
      expect(flips.nights).toEqual(history.map((n) => [n.finishedAt, String(n.flips.passToFail), String(n.flips.failToPass)]));
      const fetches = await numbersOf("signed-fetches");
      expect(fetches.nights).toEqual(history.map((n) => [n.finishedAt, String(n.signedFetches)]));
    });

    test("the second night is tonight's report: its counts are the last point", () => {
      const tonight = second.state!.history.at(-1)!;
      expect(tonight.statuses).toEqual(second.summary.byStatus);
      expect(tonight.flips).toEqual(second.summary.flips);
      expect(tonight.exitCode).toBe(verdictOf(second).exitCode);
    });
  });
});
