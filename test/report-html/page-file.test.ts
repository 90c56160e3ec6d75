/**
 * `trustgate drift --html <file>`, driven through the command line's `main` with a hand-built report: the page is
 * written beside the other outputs, carries a strict Content-Security-Policy whose hashes are its own inline
 * scripts and stylesheets, holds every row as data (not markup), no secret, and no outside text as markup.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { main } from "../../src/cli/main.js";
import type { DriftReport } from "../../src/drift/types.js";
import { PAGE_COLUMNS } from "../../src/report-html/page-data.js";
import { errorRow, passToFail, report, row } from "../cli/report-fixture.js";

const REAL = ["drift", "--rpc", "http://127.0.0.1:9", "--api", "http://127.0.0.1:9", "--agents", "base:1,base:2"];
const SECRET_URL = "https://user:hunter2@rpc.example/v2/SECRETKEY123?apikey=SECRETQUERY";
const HOSTILE = '</script><img src=x onerror=alert(1)>"><script>alert(2)</script>';

async function drift(args: string[], result: DriftReport) {
  const err: string[] = [];
  const io = { stdout: { write: () => true }, stderr: { write: (s: string) => err.push(s) }, env: {}, isTTY: false };
  const code = await main([...REAL, ...args], io, { runDrift: async () => result, now: () => new Date("2026-11-22T12:00:00Z") });
  return { code, stderr: err.join("") };
}

const hostileReport = () =>
  report([passToFail("1"), errorRow("2", `request to ${SECRET_URL} failed: ${HOSTILE}`), row({ agentId: "3", registry: HOSTILE })], {
    rpc: "https://base-mainnet.example/v2/SECRETKEY123",
  });

describe("--html", () => {
  test("writes the page beside the JSON report; every row is in its data, most severe first", async () => {
    const dir = mkdtempSync(join(tmpdir(), "trustgate-html-"));
    const r = hostileReport();
    const { code, stderr } = await drift(["--json", join(dir, "r.json"), "--html", join(dir, "r.html")], r);
    expect(code, stderr).toBe(4);
    expect(stderr).toContain(`HTML page written to ${join(dir, "r.html")}`);
    const html = readFileSync(join(dir, "r.html"), "utf8");
    const json = JSON.parse(readFileSync(join(dir, "r.json"), "utf8")) as DriftReport;
    const rows = JSON.parse(/<script type="application\/json" id="page-rows">([\s\S]*?)<\/script>/.exec(html)![1]!) as unknown[][];
    expect(rows.map((tuple) => tuple[PAGE_COLUMNS.indexOf("agentId")])).toEqual(json.agents.map((agent) => agent.agentId));
  });

  test("carries a Content-Security-Policy that allows its own inline scripts and styles only, and loads nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "trustgate-html-"));
    await drift(["--html", join(dir, "r.html")], hostileReport());
    const html = readFileSync(join(dir, "r.html"), "utf8");
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1]!;
    expect(policy).toMatch(/^default-src 'none'; /);
    const hash = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => hash(m[1]!));
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => hash(m[1]!));
    expect(scripts).toHaveLength(2);
    expect(styles).toHaveLength(2);
    expect(policy).toContain(`script-src ${scripts.join(" ")};`);
    expect(policy).toContain(`style-src ${styles.join(" ")};`);
    const markup = html.replace(/<script type="application\/json"[^>]*>[\s\S]*?<\/script>/g, "");
    expect(markup).not.toMatch(/\b(?:src|href)=|@import|url\(|@font-face/);
  });

  test("holds no secret, and no outside text as markup", async () => {
    const dir = mkdtempSync(join(tmpdir(), "trustgate-html-"));
    await drift(["--html", join(dir, "r.html")], hostileReport());
    const html = readFileSync(join(dir, "r.html"), "utf8");
    expect(html).not.toMatch(/hunter2|SECRETKEY123|SECRETQUERY/);
    expect(html).not.toContain("<img");
    expect(html.match(/<\/script>/g)).toHaveLength(4);
  });

  test.each([
    [["--html", "-"], /^trustgate: --html takes a file, not "-"/],
    [
      ["--json", "same.out", "--html", "./same.out"],
      /--json same\.out and --html \.\/same\.out are the same file .*the HTML page would overwrite/,
    ],
  ])("refuses %j before the scan (exit 2)", async (args, message) => {
    const dir = mkdtempSync(join(tmpdir(), "trustgate-html-"));
    const resolved = args.map((a) => (a.endsWith("same.out") ? `${dir}/${a}` : a));
    const { code, stderr } = await drift(resolved, report([row({ agentId: "1" })]));
    expect(code).toBe(2);
    expect(stderr.replaceAll(dir + "/", "")).toMatch(message);
  });
});
