/**
 * `trustgate drift` against a hostile trust service, end to end: the embedded local Base chain (`--demo`) and a
 * loopback service (`--api`) that serves a valid JWKS but answers every trust-check with an error that carries
 * escape sequences, live Markdown and the echoed API key, or with a body that never ends. Whatever it sends, the scan
 * completes with one row per agent and a reason, and no output — terminal, JSON, Markdown — holds the key, an escape
 * sequence or an image the Markdown would load.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { main } from "../../src/cli/main.js";
import { startDemoDriftEnvironment } from "../../src/harness/demo.js";
import { generateSigningKey } from "../../src/harness/signing.js";
import { jwksOf } from "../support/attestations.js";
import { endlessBody, type HostileServer, startHostileServer } from "./hostile-service.js";

const KEY = "tgk_live_Qm7Rz2Kx9Lw4Tn8Vb3Hc6Jd1Fs5";
const ESC = "\u001b";
const HOSTILE =
  `${ESC}[2J${ESC}]0;pwned\u0007${ESC}[31mALL AGENTS REVOKED${ESC}[0m invalid key ${KEY} ` +
  "![img](https://attacker.example/pixel.png) <img src=x> | cell";

let mode: "text" | "endless" = "text";
let service: HostileServer;
let jwks: string;
beforeAll(async () => {
  jwks = JSON.stringify(jwksOf(await generateSigningKey("rnwy-trust-v2")));
  service = await startHostileServer((req, res, count) => {
    if (req.url?.startsWith("/.well-known/jwks.json")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(jwks);
    } else if (mode === "endless") {
      endlessBody()(req, res, count);
    } else {
      res.writeHead(422, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: "unprocessable", message: HOSTILE } }));
    }
  });
});
afterAll(async () => {
  await service.close();
});

async function drift() {
  const dir = mkdtempSync(join(tmpdir(), "trustgate-hostile-"));
  const out: string[] = [];
  const io = { stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => out.push(s) }, env: {}, isTTY: false };
  const code = await main(
    [
      "drift",
      "--demo",
      "--api",
      service.url,
      "--api-key",
      KEY,
      "--agents",
      "base:1,base:2",
      "--rows",
      "all",
      "--wide",
      "--json",
      join(dir, "report.json"),
      "--markdown",
      join(dir, "report.md"),
    ],
    io,
    { startEmbedded: () => startDemoDriftEnvironment() },
  );
  return {
    code,
    printed: out.join(""),
    json: readFileSync(join(dir, "report.json"), "utf8"),
    markdown: readFileSync(join(dir, "report.md"), "utf8"),
  };
}

/** No 6 consecutive characters of the key. */
function expectNoPartOfKey(text: string): void {
  for (let i = 0; i + 6 <= KEY.length; i++) expect(text).not.toContain(KEY.slice(i, i + 6));
}

describe("trustgate drift against a hostile service", () => {
  test("error messages with escape sequences, live Markdown and the echoed key: rows with reasons, safe outputs", async () => {
    mode = "text";
    const result = await drift();
    const report = JSON.parse(result.json) as { agents: { status: string; reason: string }[] };
    expect(report.agents).toHaveLength(2);
    for (const row of report.agents) expect(row).toMatchObject({ status: "error", reason: expect.stringContaining("HTTP 422") });
    for (const output of [result.printed, result.json, result.markdown]) expectNoPartOfKey(output);
    expect(result.printed).toContain("ALL AGENTS REVOKED");
    // eslint-disable-next-line no-control-regex
    expect(result.printed.replace(/\n/g, "")).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(result.markdown).toContain("ALL AGENTS REVOKED");
    // eslint-disable-next-line no-control-regex
    expect(result.markdown.replace(/\n/g, "")).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(result.markdown).not.toContain("![img](");
    expect(result.markdown).not.toContain("<img");
  });

  test("a trust-check body that never ends: each row says the limit, one request per agent, the scan completes", async () => {
    mode = "endless";
    const before = service.requests.filter((r) => r.includes("/api/trust-check")).length;
    const result = await drift();
    const report = JSON.parse(result.json) as { agents: { status: string; reason: string }[] };
    expect(report.agents).toHaveLength(2);
    for (const row of report.agents) {
      expect(row).toMatchObject({ status: "error", reason: expect.stringContaining(`the limit is ${8 * 1024 * 1024} bytes`) });
    }
    expect(service.requests.filter((r) => r.includes("/api/trust-check")).length - before).toBe(2);
    expectNoPartOfKey(result.printed + result.json + result.markdown);
  });
});
