/**
 * The HTML page in a real browser: Debian's Chromium (`/usr/bin/chromium`, installed by `.ci/run`) driven by
 * playwright-core opens the page a devnet run wrote beside its JSON report, at a desk's width (1440 px) and a phone's
 * (390 px). At 1440 px the page shows the JSON's numbers, names the verdict and the night in its title, keeps zero
 * counts neutral, lays the tier matrix out in tier order, filters the rows from it and scrolls to them, links each
 * flip to its row, keeps the rows' header in view while they scroll, fits every column, sorts, and asks the network
 * for nothing. At 390 px nothing overflows the page: the cards and the rows reflow and the matrix scrolls within
 * itself. A page written from a hand-built report sets errors apart from missing sides in the matrix; one whose
 * agents carry hostile names (the devnet accepts only known registries and chains) shows them as text; after two
 * nights with `--state` it shows the nights before, the agents per status on a log scale in the cards' colours.
 * Screenshots are kept under `test-output/report-html/`; `UPDATE_SCREENSHOT=1` also copies the devnet run's first
 * view to `docs/images/drift-report.png`, the README's.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { main } from "../../src/cli/main.js";
import { verdictOf } from "../../src/drift/verdict.js";
import { DEFAULT_TRUST_ENCODING } from "../../src/config/encodings.js";
import { DRIFT_STATUS_MEANINGS, DRIFT_STATUSES, type DriftReport, type DriftRow, type DriftStatus } from "../../src/drift/types.js";
import { DRIFT_EXIT_CODES } from "../../src/drift/verdict.js";
import { NEUTRAL_COLOUR, STATUS_COLOURS } from "../../src/report-html/status-colours.js";
import { errorRow, invalid, report as fixtureReport, row as fixtureRow } from "../cli/report-fixture.js";
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

/** The desk's and the phone's viewports. */
const DESK = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** A row's tier on one side, as the page's matrix names it: a side without a tier is an error, invalid, or missing. */
const tierOf = (row: DriftRow, side: { readonly tier: string } | null) =>
  side?.tier ?? (row.status === "error" ? "(error)" : row.status === "invalid-attestation" ? "(invalid)" : "(missing)");

/** The matrix's order: the kit's tiers lowest first, any other tier, then the sides without one, errors last. */
const MATRIX_ORDER = [...DEFAULT_TRUST_ENCODING.tiers, "(missing)", "(invalid)", "(error)"];
const inMatrixOrder = (keys: Iterable<string>) => MATRIX_ORDER.filter((key) => new Set(keys).has(key));

/** A CSS hex colour as the browser's computed style writes it. */
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16)).join(", ")})`;

/** The matrix's row headers (on-chain) and column headers (attested), as shown. */
const matrixHeaders = (page: Page) =>
  page.$eval("#matrix", (table) => ({
    onchain: [...table.querySelectorAll("th[scope=row]")].map((th) => th.textContent!),
    attested: [...table.querySelectorAll("th[scope=col]")].map((th) => th.textContent!),
  }));

/**
 * The rows table's view and its header, as rectangles of the viewport. (The callbacks run in the page: they reach
 * its document through the element they are given, since the tests compile without the DOM's global names.)
 */
const tableRects = (page: Page) =>
  page.$eval("html", (root) => {
    const box = (id: string) => {
      const r = root.ownerDocument.getElementById(id)!.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height };
    };
    return { view: box("table-view"), head: box("table-head") };
  });

/** Scrolls the rows table down by `by` px, and says what is drawn at the middle of its header's top line then. */
const scrollRows = (page: Page, by: number) =>
  page.$eval(
    "html",
    async (root, pixels) => {
      const doc = root.ownerDocument;
      const view = doc.getElementById("table-view")!;
      view.scrollIntoView({ block: "start" });
      view.scrollTop = pixels;
      await new Promise((resolve) => doc.defaultView!.requestAnimationFrame(() => doc.defaultView!.requestAnimationFrame(resolve)));
      const head = doc.getElementById("table-head")!;
      const box = head.getBoundingClientRect();
      const atHead = doc.elementFromPoint(box.left + box.width / 2, box.top + 4);
      return { scrollTop: view.scrollTop, onHead: atHead !== null && head.contains(atHead) };
    },
    by,
  );

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
    page = await browser.newPage({ viewport: DESK });
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
    await page.screenshot({ path: join(OUTPUT, "full-page-1440.png"), fullPage: true });
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

  test("names the verdict and the night in the tab's title", async () => {
    const { exitCode } = verdictOf(report);
    const name = Object.entries(DRIFT_EXIT_CODES).find(([, code]) => code === exitCode)![0];
    const night = `${report.generatedAt.slice(0, 10)} ${report.generatedAt.slice(11, 16)} UTC`;
    expect(await page.title()).toBe(`exit ${exitCode} ${name} · ${night} · trustgate drift report`);
  });

  test("shows a zero count in neutral grey, and a count above zero in its status's colour", async () => {
    const colours = await page.$$eval("#counts li", (items) =>
      items.map((item) => ({
        status: item.dataset.status!,
        count: Number(item.querySelector(".count")!.textContent),
        text: item.ownerDocument.defaultView!.getComputedStyle(item.querySelector(".count")!).color,
        stripe: item.ownerDocument.defaultView!.getComputedStyle(item).borderLeftColor,
      })),
    );
    const zero = colours.filter((card) => card.count === 0);
    const some = colours.filter((card) => card.count > 0);
    expect(zero.length, "the devnet run has a status with no agent").toBeGreaterThan(0);
    expect(some.length).toBeGreaterThan(0);
    for (const card of zero) expect(card.text, card.status).toBe(rgb(NEUTRAL_COLOUR));
    for (const card of zero) expect(card.stripe, card.status).not.toBe(rgb(STATUS_COLOURS[card.status as DriftStatus]));
    for (const card of some)
      expect([card.text, card.stripe], card.status).toEqual([
        rgb(STATUS_COLOURS[card.status as DriftStatus]),
        rgb(STATUS_COLOURS[card.status as DriftStatus]),
      ]);
  });

  test("lays the tier matrix out in the kit's tier order, lowest first, the sides without a tier after them", async () => {
    const headers = await matrixHeaders(page);
    expect(headers.onchain).toEqual(inMatrixOrder(report.agents.map((row) => tierOf(row, row.onchain))));
    expect(headers.attested).toEqual(inMatrixOrder(report.agents.map((row) => tierOf(row, row.attested))));
    expect(headers.onchain.length, "the devnet run has agents in several tiers").toBeGreaterThan(2);
    expect(headers.onchain).not.toEqual([...headers.onchain].sort());
  });

  test("keeps the rows' header at the top of the table while the rows scroll under it", async () => {
    const scrolled = await scrollRows(page, 300);
    expect(scrolled.scrollTop).toBe(300);
    const { view, head } = await tableRects(page);
    expect(Math.abs(head.top - view.top), "the header sits at the table's top edge").toBeLessThanOrEqual(1);
    expect(scrolled.onHead, "the header is drawn over the rows, not under them").toBe(true);
    const first = await page.$eval("#table-body .table-row", (row) => Number(row.getAttribute("data-index")));
    expect(first, "the rows under the header are the scrolled ones").toBeGreaterThan(0);
    await scrollRows(page, 0);
  });

  test("fits every column at 1440 px: no cell cut but the reason's, which keeps at least 12 rem", async () => {
    await scrollRows(page, 0);
    const fit = await page.$eval("html", (root) => {
      const doc = root.ownerDocument;
      const view = doc.getElementById("table-view")!;
      const right = view.getBoundingClientRect().right;
      const heads = [...doc.querySelectorAll("#table-head button")].map((button) => ({
        title: button.textContent!,
        inside: button.getBoundingClientRect().right <= right,
        whole: button.scrollWidth <= button.clientWidth,
      }));
      const cut = [...doc.querySelectorAll("#table-body .table-row span:not(.col-reason)")]
        .filter((cell) => cell.scrollWidth > cell.clientWidth)
        .map((cell) => `${cell.className}: ${cell.textContent}`);
      const reason = doc.querySelector("#table-body .table-row .col-reason")!.getBoundingClientRect();
      return { scrolls: view.scrollWidth > view.clientWidth, heads, cut, reasonWidth: reason.width, reasonInside: reason.right <= right };
    });
    expect(fit.scrolls, "the table does not scroll sideways").toBe(false);
    expect(fit.heads.filter((head) => !head.inside || !head.whole)).toEqual([]);
    expect(fit.cut).toEqual([]);
    expect(fit.reasonInside).toBe(true);
    expect(fit.reasonWidth).toBeGreaterThanOrEqual(12 * 16);
  });

  test("lists the flips in two lists, one per direction, each item a link that brings its row on screen", async () => {
    const lists = { "flips-pass-to-fail": true, "flips-fail-to-pass": false } as const;
    let linked = 0;
    for (const [id, onchainPasses] of Object.entries(lists)) {
      const links = await page.$$eval(`#${id} a`, (anchors) =>
        anchors.map((a) => ({ href: a.getAttribute("href")!, text: a.textContent! })),
      );
      const flips = report.agents.flatMap((row, index) => (row.decision.flipped && row.decision.onchain === onchainPasses ? [index] : []));
      expect(
        links.map((link) => link.href),
        id,
      ).toEqual(flips.slice(0, 200).map((index) => `#row-${index}`));
      if (links.length === 0) continue;
      // the last link of the list, with a filter on that hides its row: the link clears it
      await page.selectOption("#filter-status", String(DRIFT_STATUSES.indexOf("in-sync")));
      const last = links.at(-1)!;
      const index = Number(last.href.slice("#row-".length));
      await page.click(`#${id} a[href="${last.href}"]`);
      const row = page.locator(`#row-${index}`);
      expect(await row.getAttribute("class")).toContain("target");
      expect(await row.locator(".col-agent").textContent()).toBe(last.text);
      const reportRow = report.agents[index]!;
      expect(last.text).toBe(`${reportRow.chain}:${reportRow.agentId}:${reportRow.registry}`);
      const shown = await row.boundingBox();
      const { view, head } = await tableRects(page);
      expect(shown!.y, "below the rows' header").toBeGreaterThanOrEqual(head.bottom - 1);
      expect(shown!.y + shown!.height, "within the table's view").toBeLessThanOrEqual(view.bottom + 1);
      expect(shown!.y + shown!.height, "within the window").toBeLessThanOrEqual(DESK.height);
      expect(await page.$eval("#filter-status", (select) => (select as unknown as { value: string }).value)).toBe("-1");
      linked++;
    }
    expect(linked, "the devnet run flips in at least one direction").toBeGreaterThan(0);
    await scrollRows(page, 0);
  });

  test("opened at #row-<n>, shows row n (the JSON report's agents[n]) on screen, marked", async () => {
    const index = report.agents.length - 1;
    const other = await browser.newPage({ viewport: DESK });
    await other.goto(`file://${join(OUTPUT, "report.html")}#row-${index}`);
    await other.waitForSelector("html[data-ready=true]");
    const row = other.locator(`#row-${index}`);
    expect(await row.getAttribute("class")).toContain("target");
    const { chain, agentId, registry } = report.agents[index]!;
    expect(await row.locator(".col-agent").textContent()).toBe(`${chain}:${agentId}:${registry}`);
    const shown = await row.boundingBox();
    expect(shown!.y).toBeGreaterThanOrEqual(0);
    expect(shown!.y + shown!.height).toBeLessThanOrEqual(DESK.height);
    await other.close();
  });

  test("clicking a tier matrix cell filters the rows to exactly that transition, and scrolls to them", async () => {
    const cells = await page.$$eval("#matrix button", (buttons) =>
      buttons.map((b) => ({ onchain: b.dataset.onchain!, attested: b.dataset.attested!, count: Number(b.textContent) })),
    );
    expect(cells.reduce((sum, cell) => sum + cell.count, 0)).toBe(report.agents.length);
    const cell = [...cells].sort((a, b) => a.count - b.count)[0]!;
    const expected = report.agents.flatMap((row: DriftRow, index) =>
      tierOf(row, row.onchain) === cell.onchain && tierOf(row, row.attested) === cell.attested ? [String(index)] : [],
    );
    expect(cell.count).toBe(expected.length);
    await page.$eval("html", (root) => root.ownerDocument.defaultView!.scrollTo(0, 0));
    expect((await tableRects(page)).view.top, "the rows start below the first view").toBeGreaterThan(DESK.height);
    await page.click(`#matrix button[data-onchain="${cell.onchain}"][data-attested="${cell.attested}"]`);
    const { view } = await tableRects(page);
    expect(
      await page.$eval("#rows-title", (title) => title.getBoundingClientRect().top),
      "the click scrolled the page to the rows",
    ).toBeGreaterThanOrEqual(0);
    expect(view.bottom, "the rows' view is wholly in the window").toBeLessThanOrEqual(DESK.height);
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

  test("sets the sides without a tier apart in the matrix: missing, invalid and error each in its own line", async () => {
    const dir = join(OUTPUT, "matrix");
    mkdirSync(dir, { recursive: true });
    const html = join(dir, "report.html");
    const side = (tier: string, score: number) => ({ score, tier, sybilSeverity: "none", updatedAt: "2026-11-22T03:00:00.000Z" });
    const attested = (tier: string, score: number) => ({
      score,
      tier,
      sybilSeverity: "none",
      attestedAt: "2026-11-22T11:00:00.000Z",
      kid: "k",
    });
    const rows = [
      fixtureRow({ agentId: "1", onchain: side("established", 80), attested: attested("established", 80) }),
      fixtureRow({ agentId: "2", onchain: side("flagged", 10), attested: attested("flagged", 10) }),
      fixtureRow({ agentId: "3", onchain: side("limited", 40), attested: attested("limited", 40) }),
      fixtureRow({ agentId: "4", status: "missing-attestation", attested: null, scoreDelta: null }),
      fixtureRow({ agentId: "5", status: "missing-onchain", onchain: null, attested: attested("developing", 60), scoreDelta: null }),
      invalid("6"),
      errorRow("7"),
    ];
    const io = { stdout: { write: () => true }, stderr: { write: () => true }, env: {}, isTTY: false };
    const argv = ["drift", "--rpc", "http://127.0.0.1:9", "--api", "http://127.0.0.1:9", "--agents", "base:1", "--html", html, "--quiet"];
    await main(argv, io, { runDrift: async () => fixtureReport(rows) });
    const other = await browser.newPage({ viewport: DESK });
    await other.goto(`file://${html}`);
    await other.waitForSelector("html[data-ready=true]");
    await other.locator("#matrix").screenshot({ path: join(dir, "matrix.png") });
    const headers = await matrixHeaders(other);
    expect(headers.onchain).toEqual(["flagged", "limited", "developing", "established", "(missing)", "(error)"]);
    expect(headers.attested).toEqual(["flagged", "limited", "developing", "established", "(missing)", "(invalid)", "(error)"]);
    const cell = (onchain: string, attested: string) =>
      other.$eval(`#matrix button[data-onchain="${onchain}"][data-attested="${attested}"]`, (b) => Number(b.textContent));
    expect(await cell("(error)", "(error)")).toBe(1);
    expect(await cell("developing", "(missing)")).toBe(1);
    expect(await cell("developing", "(invalid)")).toBe(1);
    expect(await cell("(missing)", "developing")).toBe(1);
    expect(await other.$$eval("#matrix th.apart", (ths) => ths.map((th) => th.textContent))).toEqual(["(missing)"]);
    await other.close();
  });

  describe("at a phone's width, 390 px", () => {
    let phone: Page;

    beforeAll(async () => {
      phone = await browser.newPage({ viewport: PHONE });
      await phone.goto(`file://${join(OUTPUT, "report.html")}`);
      await phone.waitForSelector("html[data-ready=true]");
      await phone.screenshot({ path: join(OUTPUT, "first-view-390.png") });
      await phone.screenshot({ path: join(OUTPUT, "full-page-390.png"), fullPage: true });
    });

    afterAll(async () => {
      await phone?.close();
    });

    test("the page is no wider than the screen", async () => {
      expect(await phone.$eval("html", (root) => root.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    });

    test("the cards reflow into the width, and the matrix scrolls within itself", async () => {
      const cards = await phone.$$eval("#counts li", (items) => items.map((item) => item.getBoundingClientRect().right));
      expect(cards.length).toBe(DRIFT_STATUSES.length);
      for (const right of cards) expect(right).toBeLessThanOrEqual(PHONE.width);
      const matrix = await phone.$eval("#matrix-view", (view) => {
        view.scrollLeft = 60;
        return { right: view.getBoundingClientRect().right, wider: view.scrollWidth > view.clientWidth, scrolled: view.scrollLeft };
      });
      expect(matrix.right).toBeLessThanOrEqual(PHONE.width);
      expect(matrix.wider, "the devnet run's matrix is wider than a phone").toBe(true);
      expect(matrix.scrolled).toBe(60);
    });

    test("each row reflows into lines within the width, under a header that stays at the table's top", async () => {
      const rows = await phone.$$eval("#table-body .table-row", (lines) =>
        lines.slice(0, 3).map((line) => {
          const top = (name: string) => line.querySelector(`.col-${name}`)!.getBoundingClientRect().top;
          const box = line.getBoundingClientRect();
          const cut = [...line.querySelectorAll("span:not(.col-reason)")].filter((cell) => cell.scrollWidth > cell.clientWidth);
          return {
            right: box.right,
            lines: new Set(["status", "onscore", "delta", "updated", "issued", "reason"].map(top)).size,
            cut: cut.map((cell) => cell.textContent),
          };
        }),
      );
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        expect(row.right).toBeLessThanOrEqual(PHONE.width);
        expect(row.lines, "status, scores, flip, each time and the reason on a line of its own").toBe(6);
        expect(row.cut, "no value cut but the reason").toEqual([]);
      }
      expect(await phone.$eval("#table-view", (view) => view.scrollWidth <= view.clientWidth)).toBe(true);
      const scrolled = await scrollRows(phone, 400);
      const { view, head } = await tableRects(phone);
      expect(scrolled.scrollTop).toBe(400);
      expect(Math.abs(head.top - view.top)).toBeLessThanOrEqual(1);
      expect(scrolled.onHead).toBe(true);
      await phone.locator("#table-view").screenshot({ path: join(OUTPUT, "rows-390.png") });
    });
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
      nightsPage = await browser.newPage({ viewport: DESK });
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

    test("draws the agents per status on a log scale, each status in its cards' colour", async () => {
      expect(await nightsPage.getAttribute('#history [data-chart="statuses"]', "data-y-scale")).toBe("log");
      const legend = await nightsPage.$$eval('#history [data-chart="statuses"] .u-legend .u-series', (items) =>
        items.map((item) => ({
          label: item.querySelector(".u-label")!.textContent!,
          colour: item.ownerDocument.defaultView!.getComputedStyle(item.querySelector(".u-marker")!).borderTopColor,
        })),
      );
      expect(legend).toEqual(DRIFT_STATUSES.map((status) => ({ label: status, colour: rgb(STATUS_COLOURS[status]) })));
      const cards = await nightsPage.$$eval("#counts li:not([data-zero])", (items) =>
        items.map((item) => ({
          label: item.dataset.status!,
          colour: item.ownerDocument.defaultView!.getComputedStyle(item).borderLeftColor,
        })),
      );
      expect(cards.length).toBeGreaterThan(0);
      for (const card of cards) expect(legend).toContainEqual(card);
    });

    test("the second night is tonight's report: its counts are the last point", () => {
      const tonight = second.state!.history.at(-1)!;
      expect(tonight.statuses).toEqual(second.summary.byStatus);
      expect(tonight.flips).toEqual(second.summary.flips);
      expect(tonight.exitCode).toBe(verdictOf(second).exitCode);
    });
  });
});
