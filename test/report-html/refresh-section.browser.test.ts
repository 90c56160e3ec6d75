/**
 * The page's "Refreshes" section in Chromium, at a desk's width (1440 px) and a phone's (390 px): a page written by
 * `trustgate drift --html … --refresh-report …` (a hand-built drift report and refresh report, hostile text in both)
 * runs without an error or a Content-Security-Policy violation, shows the section's counts and lines as text, and at
 * 390 px never scrolls sideways: the section's table scrolls within itself.
 */
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { main } from "../../src/cli/main.js";
import { passToFail, report } from "../cli/report-fixture.js";
import { HOSTILE, refreshReport } from "./refresh-report-fixture.js";

const CHROMIUM = "/usr/bin/chromium";
const HAS_CHROMIUM = existsSync(CHROMIUM);
const suiteName = HAS_CHROMIUM
  ? "the page's refreshes section, in Chromium"
  : "the page's refreshes section, in Chromium (skipped: /usr/bin/chromium is absent; apt-get install -y chromium)";

describe.skipIf(!HAS_CHROMIUM)(suiteName, () => {
  const dir = mkdtempSync(join(tmpdir(), "trustgate-refresh-browser-"));
  const html = join(dir, "page.html");
  let browser: Browser;

  beforeAll(async () => {
    writeFileSync(join(dir, "refresh.json"), JSON.stringify(refreshReport({ dueCount: 30 })));
    const io = { stdout: { write: () => true }, stderr: { write: () => true }, env: {}, isTTY: false };
    const args = ["drift", "--rpc", "http://127.0.0.1:9", "--api", "http://127.0.0.1:9", "--agents", "base:1"];
    await main([...args, "--html", html, "--refresh-report", join(dir, "refresh.json")], io, {
      runDrift: async () => report([passToFail("1")]),
      now: () => new Date("2026-11-22T12:00:00Z"),
    });
    browser = await chromium.launch({ executablePath: CHROMIUM });
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** Opens the page at a width; collects what went wrong while it ran. */
  async function open(width: number): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    const problems: string[] = [];
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
    return { page, problems };
  }

  test.each([1440, 390])(
    "at %i px: runs cleanly, shows the counts, the refused line's error as text, and fits the width",
    async (width) => {
      const { page, problems } = await open(width);
      try {
        expect(problems).toEqual([]);
        const summary = await page.$eval("#refreshes p", (p) => p.textContent);
        expect(summary).toMatch(/^31 stored, 0 already current, 1 refused, 1 not fetched, 0 no-op, 1 skipped; 1 transaction/);
        const lines = await page.$$eval("#refreshes tbody tr", (rows) =>
          rows.map((row) => [...row.children].map((cell) => cell.textContent)),
        );
        expect(lines[0]).toEqual(["refused", "base:2:erc8004", `RevokedSigningKey("rnwy-trust-v1") ${HOSTILE}`]);
        expect(lines.at(-1)).toEqual(["skipped: not-due", `base:9:${HOSTILE}`, "no push rule applies"]);
        expect(await page.$$("#refreshes img, #refreshes script")).toHaveLength(0);
        const box = await page.$eval("#refreshes", (section) => ({ right: section.getBoundingClientRect().right }));
        expect(box.right).toBeLessThanOrEqual(width);
        expect(await page.$eval("html", (root) => root.scrollWidth)).toBeLessThanOrEqual(width);
      } finally {
        await page.close();
      }
    },
  );
});
