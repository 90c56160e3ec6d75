/**
 * The HTML report page at scale: a report of `size` rows (statuses, tiers, scores and ages spread as a night's scan
 * spreads them; built here, since the page's cost does not depend on how the rows were found) is written through the
 * command line's writer (`writeOutputs`, the same streamed path as a scan's `--html`), then Debian's headless
 * Chromium (`/usr/bin/chromium`, through playwright-core) opens it from disk: how long until the page's script has
 * drawn the verdict, the matrix, both charts and the table, and the first frame after that is painted. Figures, not
 * assertions.
 *
 * @packageDocumentation
 */
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { writeOutputs } from "../../src/cli/write-outputs";
import { syntheticReport } from "./synthetic-report";

/** Figures of one page. */
export interface HtmlPageFigures {
  readonly agents: number;
  readonly fileBytes: number;
  /** Time to write the page (and nothing else) from the rows, milliseconds. */
  readonly writeMs: number;
  /** From navigation to the first frame painted after the page's script finished, milliseconds; null without Chromium. */
  readonly firstViewMs: number | null;
  /** Of which the page's own script (parsing the data, the charts, the matrix, the table), milliseconds. */
  readonly scriptMs: number | null;
}

const CHROMIUM = "/usr/bin/chromium";

/**
 * Writes and opens a page of `size` rows.
 *
 * @param size - Rows in the report.
 * @returns The figures.
 */
export async function measureHtmlPage(size: number): Promise<HtmlPageFigures> {
  const report = syntheticReport(size);
  const dir = mkdtempSync(join(tmpdir(), "trustgate-bench-html-"));
  const file = join(dir, "report.html");
  try {
    const quiet = { write: () => true };
    const started = performance.now();
    await writeOutputs(report, {
      output: { html: file, tableRows: 0, wide: false, quiet: true, ci: true },
      stdout: quiet,
      stderr: quiet,
    });
    const writeMs = performance.now() - started;
    const fileBytes = statSync(file).size;
    if (!existsSync(CHROMIUM)) return { agents: size, fileBytes, writeMs, firstViewMs: null, scriptMs: null };
    const browser = await chromium.launch({ executablePath: CHROMIUM });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      const opened = performance.now();
      await page.goto(`file://${file}`, { waitUntil: "commit" });
      await page.waitForSelector("html[data-ready=true]", { timeout: 300_000 });
      // Two frames: the one the page's last changes go into, then the one that shows them.
      await page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))");
      const firstViewMs = performance.now() - opened;
      const scriptMs = await page.evaluate(() => {
        const [script] = performance.getEntriesByName("page-script");
        return script ? script.duration : null;
      });
      return { agents: size, fileBytes, writeMs, firstViewMs, scriptMs };
    } finally {
      await browser.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
