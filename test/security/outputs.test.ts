/**
 * What `trustgate drift` writes: the JSON report and the Markdown summary never land in the same file, however the two
 * paths are spelled, and text that came from the service reaches neither the terminal with escape sequences nor the
 * Markdown summary or rows as live Markdown. Driven through the command line's `main`.
 */
import { linkSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { main } from "../../src/cli/main.js";
import type { DriftReport } from "../../src/drift/types.js";
import { errorRow, report, row } from "../cli/report-fixture.js";

const NOW = new Date("2026-11-22T12:00:00Z");
const REAL = ["drift", "--rpc", "http://127.0.0.1:9", "--api", "http://127.0.0.1:9", "--agents", "base:1,base:2"];

function cli() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => err.push(s) }, env: {}, isTTY: false },
    stdout: () => out.join(""),
    stderr: () => err.join(""),
  };
}

async function drift(args: string[], result: DriftReport) {
  const c = cli();
  let runs = 0;
  const code = await main([...REAL, ...args], c.io, {
    runDrift: async () => {
      runs++;
      return result;
    },
    now: () => NOW,
  });
  return { code, runs, stdout: c.stdout(), stderr: c.stderr() };
}

describe("--json and --markdown", () => {
  const spellings: [string, (dir: string) => [string, string]][] = [
    ["`./` in one of them", (dir) => [join(dir, "report.json"), `${dir}/./report.json`]],
    ["`..` in one of them", (dir) => [join(dir, "report.json"), `${dir}/sub/../report.json`]],
    [
      "a symbolic link to the other file",
      (dir) => {
        writeFileSync(join(dir, "report.json"), "{}");
        symlinkSync(join(dir, "report.json"), join(dir, "link.md"));
        return [join(dir, "report.json"), join(dir, "link.md")];
      },
    ],
    [
      "a file not yet there, reached through a linked directory",
      (dir) => {
        symlinkSync(dir, join(dir, "same-dir"));
        return [join(dir, "new.json"), join(dir, "same-dir", "new.json")];
      },
    ],
    [
      "a hard link to the other file",
      (dir) => {
        writeFileSync(join(dir, "report.json"), "{}");
        linkSync(join(dir, "report.json"), join(dir, "hard.md"));
        return [join(dir, "report.json"), join(dir, "hard.md")];
      },
    ],
    [
      "a dangling link to the other, not yet written, file",
      (dir) => {
        symlinkSync(join(dir, "later.json"), join(dir, "later.md"));
        return [join(dir, "later.json"), join(dir, "later.md")];
      },
    ],
  ];

  for (const [name, paths] of spellings) {
    test(`naming the same file (${name}): exit 2 before the scan, nothing written`, async () => {
      const dir = mkdtempSync(join(tmpdir(), "trustgate-outputs-"));
      mkdirSync(join(dir, "sub"));
      const [json, markdown] = paths(dir);
      const result = await drift(["--json", json, "--markdown", markdown], report([row({ agentId: "1" })]));
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(
        /^trustgate: --json .* and --markdown .* are the same file \(.*\): the Markdown summary would overwrite the JSON report/,
      );
      expect(result.runs).toBe(0);
    });
  }

  test("two different files in the same directory are both written", async () => {
    const dir = mkdtempSync(join(tmpdir(), "trustgate-outputs-"));
    const result = await drift(["--json", join(dir, "r.json"), "--markdown", `${dir}/./r.md`], report([row({ agentId: "1" })]));
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "r.json"), "utf8"))).toMatchObject({ summary: { agents: 1 } });
    expect(readFileSync(join(dir, "r.md"), "utf8")).toMatch(/^# trustgate drift report/);
  });
});

describe("service-supplied text", () => {
  const ESC = "\u001b";
  const hostile =
    `service said: ${ESC}[2J${ESC}[31mALL AGENTS REVOKED${ESC}[0m ${ESC}]0;pwned\u0007\r\u0008\u009b1m ` +
    "![img](https://attacker.example/pixel.png) [click](https://attacker.example) <img src=x> **bold** `code` | cell";
  const hostileReport = (): DriftReport => report([errorRow("1", hostile), row({ agentId: "2" })]);

  test("reaches the terminal table and summary without control characters or escape sequences", async () => {
    const result = await drift(["--rows", "all", "--wide"], hostileReport());
    const printed = result.stdout + result.stderr;
    expect(printed).toContain("ALL AGENTS REVOKED");
    // eslint-disable-next-line no-control-regex
    expect(printed.replace(/\n/g, "")).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(printed).not.toContain("[2J");
    expect(printed).not.toContain("pwned");
  });

  // The summary groups the error row by its cause (a table of 4 cells); --markdown-rows lists it (15 cells).
  test.each([
    ["--markdown", 4],
    ["--markdown-rows", 15],
  ])("reaches the Markdown (%s) as text: no image, link, HTML, emphasis or cell break, no control character", async (flag, cells) => {
    const dir = mkdtempSync(join(tmpdir(), "trustgate-outputs-"));
    const file = join(dir, "report.md");
    await drift([flag, file, "--quiet"], hostileReport());
    const md = readFileSync(file, "utf8");
    const line = md.split("\n").find((l) => l.includes("ALL AGENTS REVOKED"))!;
    expect(line).toBeDefined();
    // eslint-disable-next-line no-control-regex
    expect(md.replace(/\n/g, "")).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(line).not.toContain("![img](");
    expect(line).toContain("!\\[img\\](https://attacker.example/pixel.png)");
    expect(line).not.toMatch(/(^|[^\\])\[click\]\(/);
    expect(line).not.toContain("<img");
    expect(line).toContain("&lt;img src=x&gt;");
    expect(line).toContain("\\*\\*bold\\*\\*");
    expect(line).toContain("\\`code\\`");
    // The row keeps its cells: the pipe in the text is escaped.
    expect(line.split(/(?<!\\)\|/).length - 2).toBe(cells);
  });
});
