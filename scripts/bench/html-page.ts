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
import { checkEncodings } from "../../src/drift/encoding-check";
import { buildReport } from "../../src/drift/report";
import type { DriftReport, DriftRow, DriftStatus } from "../../src/drift/types";
import { DEFAULT_TRUST_ENCODING, tierForScore } from "../../src/config/encodings";

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
const GENERATED_AT = new Date("2026-11-22T03:00:00Z");

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

/** A report of `size` rows: mostly in sync, some drifted (a few flipping), some stale, missing or failed. */
function syntheticReport(size: number): DriftReport {
  const rows: DriftRow[] = [];
  let seed = 7;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const ago = (hours: number) => new Date(GENERATED_AT.getTime() - hours * 3_600_000).toISOString();
  for (let i = 0; i < size; i++) {
    const onScore = Math.round(random() * 100);
    const roll = random();
    const status: DriftStatus =
      roll < 0.8 ? "in-sync" : roll < 0.9 ? "drifted" : roll < 0.95 ? "stale-onchain" : roll < 0.98 ? "missing-onchain" : "error";
    const atScore = status === "drifted" ? Math.max(0, Math.min(100, onScore + Math.round((random() - 0.5) * 40))) : onScore;
    const onchain =
      status === "missing-onchain" || status === "error"
        ? null
        : {
            score: onScore,
            tier: tierForScore(onScore),
            sybilSeverity: "none",
            updatedAt: ago(status === "stale-onchain" ? 40 + random() * 60 : random() * 30),
          };
    const attested =
      status === "error"
        ? null
        : {
            score: atScore,
            tier: tierForScore(atScore),
            sybilSeverity: "none",
            attestedAt: ago(random() * 2),
            kid: random() < 0.1 ? "rnwy-trust-v2" : null,
          };
    const onPass = onchain ? onchain.score >= 51 : null;
    const atPass = attested ? attested.score >= 51 : null;
    rows.push({
      chain: random() < 0.7 ? "base" : "polygon",
      chainId: null,
      agentId: String(i + 1),
      registry: "erc8004",
      status,
      onchain,
      attested,
      attestedComputedAt: attested ? ago(random() * 20) : null,
      computedAfterRefresh: null,
      scoreDelta: onchain && attested ? attested.score - onchain.score : null,
      decision: { onchain: onPass, attested: atPass, flipped: onPass !== null && atPass !== null && onPass !== atPass },
      refresh: null,
      ...(status === "error" ? { reason: "service request failed: GET /api/trust-check failed with HTTP 503" } : {}),
    });
  }
  return buildReport(rows, {
    source: {
      rpc: "http://127.0.0.1:8545",
      oracle: "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4",
      api: "http://127.0.0.1:8787",
      issuer: "http://127.0.0.1:8787",
      chainId: 8453,
      blockNumber: "1",
    },
    decisionRule: "score >= 51",
    maxAgeSeconds: 36 * 3600,
    // No records read: the page does not show the encoding check.
    encoding: checkEncodings([], [], DEFAULT_TRUST_ENCODING),
    generatedAt: GENERATED_AT,
  });
}
