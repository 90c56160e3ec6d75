/**
 * Property-based test of the drift scan's rows, end to end through the command line (`main`): the embedded local
 * Base chain (`--demo`, started once and shared by the runs) and a loopback trust service (`--api`) whose answer to
 * each agent's trust-check is generated.
 *
 * Input covered: per agent, one of — a fresh attestation signed by the service's key for that agent, the same with a
 * value anywhere replaced by a random one, an error status whose message echoes the API key with escape sequences
 * and live Markdown, a random JSON or text body, a dropped connection; the agents asked for include ones the oracle
 * holds no record of; the JWKS served whole, broken, empty, failing, echoing the key, with another key, or dropped.
 *
 * Property: the run ends with a documented exit code (0, 3 or 4; never 1 or 2); every agent asked for appears exactly
 * once as a row of the JSON report; every row in `error`, `missing-attestation` or `invalid-attestation` says why; the
 * exit code is never 0 when no row was verified (nor without the service's key); nothing printed, nor the JSON or Markdown report, holds any part of
 * the key, and neither the terminal output nor the Markdown holds a raw control character.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmbeddedEnvironment, main } from "../../src/cli/main.js";
import { startDemoDriftEnvironment } from "../../src/harness/demo.js";
import { type AttestationSigningKey, generateSigningKey } from "../../src/harness/signing.js";
import { buildTrustCheckResponse, jwksOf } from "../support/attestations.js";
import {
  ESC,
  expectNoPartOf,
  expectNoSecrets,
  hostileJsonValue,
  hostileString,
  PASSWORD_SECRET,
  RAW_CONTROL,
  SECRET,
  within,
  replaceAt,
} from "./support.js";

/** How the service answers one agent. */
type AgentAnswer =
  | { kind: "signed"; score: number }
  | { kind: "mutated"; score: number; choices: number[]; value: unknown }
  | { kind: "error"; status: number; text: string }
  | { kind: "garbage"; body: string }
  | { kind: "drop" };

let key: AttestationSigningKey;
let embedded: EmbeddedEnvironment;
let answers = new Map<string, AgentAnswer>();
/** How the JWKS is answered in the current run. */
type JwksAnswer = "valid" | "garbage" | "500" | "empty" | "other-key" | "echo-key" | "drop";
let jwksAnswer: JwksAnswer = "valid";
let otherKey: AttestationSigningKey;
let apiUrl = "";
const sockets = new Set<Socket>();
const dir = mkdtempSync(join(tmpdir(), "trustgate-drift-props-"));

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  if (url.pathname === "/.well-known/jwks.json") {
    if (jwksAnswer === "drop") {
      req.socket.destroy();
      return;
    }
    const [status, body] =
      jwksAnswer === "valid"
        ? [200, JSON.stringify(jwksOf(key))]
        : jwksAnswer === "garbage"
          ? [200, `${ESC}[2J{"keys": [`]
          : jwksAnswer === "500"
            ? [500, "<html>boom</html>"]
            : jwksAnswer === "empty"
              ? [200, '{"keys":[]}']
              : jwksAnswer === "other-key"
                ? [200, JSON.stringify(jwksOf(otherKey))]
                : [401, JSON.stringify({ error: { message: `invalid key ${SECRET}` } })];
    res.writeHead(status, { "content-type": "application/json" });
    res.end(body);
    return;
  }
  const id = url.searchParams.get("id") ?? "";
  const spec = answers.get(id) ?? { kind: "drop" };
  if (spec.kind === "drop") {
    req.socket.destroy();
    return;
  }
  if (spec.kind === "error") {
    res.writeHead(spec.status, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        error: { code: "unprocessable", message: `${ESC}[2J invalid key ${SECRET} ![img](https://attacker.example/p.png) ${spec.text}` },
      }),
    );
    return;
  }
  if (spec.kind === "garbage") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(spec.body);
    return;
  }
  const body = await buildTrustCheckResponse(key, {
    agent: {
      agentId: id,
      chain: "base",
      score: spec.score,
      tier: spec.score >= 75 ? "established" : spec.score >= 51 ? "developing" : spec.score >= 30 ? "limited" : "flagged",
      sybilSeverity: null,
    },
    issuer: apiUrl,
    issuedAt: new Date(Date.now() - 3_600_000),
  });
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(spec.kind === "signed" ? body : replaceAt(body, spec.choices, spec.value)) ?? "");
}

const server = createServer((req, res) => {
  req.resume();
  answer(req, res).catch(() => req.socket.destroy());
});

beforeAll(async () => {
  key = await generateSigningKey("rnwy-trust-v2");
  otherKey = await generateSigningKey("rnwy-trust-v2");
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  embedded = (await startDemoDriftEnvironment()) as unknown as EmbeddedEnvironment;
}, 120_000);

afterAll(async () => {
  await embedded?.close();
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

const agentAnswer: fc.Arbitrary<AgentAnswer> = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 95 }).map((score): AgentAnswer => ({ kind: "signed", score })) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.integer({ min: 0, max: 95 }), fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), hostileJsonValue())
      .map(([score, choices, value]): AgentAnswer => ({ kind: "mutated", score, choices, value })),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(400, 401, 404, 422, 500), hostileString())
      .map(([status, text]): AgentAnswer => ({ kind: "error", status, text })),
  },
  {
    weight: 1,
    arbitrary: fc
      .oneof(
        hostileString(),
        hostileJsonValue().map((v) => JSON.stringify(v) ?? ""),
      )
      .map((body): AgentAnswer => ({ kind: "garbage", body })),
  },
  { weight: 1, arbitrary: fc.constant<AgentAnswer>({ kind: "drop" }) },
);

const PROBLEM_STATUSES = new Set(["error", "missing-attestation", "invalid-attestation"]);
let runCount = 0;
/** Row statuses seen: the signed answers must verify in some runs, or the property says little. */
const statuses = new Map<string, number>();

/** What `main` prints, both streams in one list, and the io that collects it (no terminal, no environment). */
function capturedIo() {
  const printed: string[] = [];
  const io = {
    stdout: { write: (s: string) => printed.push(s) },
    stderr: { write: (s: string) => printed.push(s) },
    env: {},
    isTTY: false,
  };
  return { printed, io };
}

describe("drift scan rows (property)", () => {
  it("any answers of the service per agent: each agent one row, problems with reasons, no 0 without a verified row, no secret", async () => {
    await fc.assert(
      fc.asyncProperty(
        // Agents as a user spells them (chain name, id or case; leading zeros; the registry or not), repeated at times.
        fc.array(
          fc.tuple(
            fc.constantFrom("1", "2", "3", "4", "5", "6", "999999"),
            fc.constantFrom("base:", "8453:", "BASE:", "base:0"),
            fc.constantFrom("", ":erc8004"),
          ),
          { minLength: 1, maxLength: 5 },
        ),
        fc.array(agentAnswer, { minLength: 5, maxLength: 5 }),
        fc.constantFrom<JwksAnswer>(
          "valid",
          "valid",
          "valid",
          "valid",
          "valid",
          "garbage",
          "500",
          "empty",
          "other-key",
          "echo-key",
          "drop",
        ),
        async (spelled, specs, jwks) => {
          const ids = [...new Set(spelled.map(([id]) => id))];
          answers = new Map(ids.map((id, i) => [id, specs[i % specs.length]!]));
          jwksAnswer = jwks;
          const run = runCount++;
          const json = join(dir, `report-${run}.json`);
          const markdown = join(dir, `report-${run}.md`);
          const { printed, io } = capturedIo();
          const argv = [
            "drift",
            "--demo",
            "--api",
            apiUrl,
            "--api-key",
            SECRET,
            "--agents",
            spelled.map(([id, chain, registry]) => `${chain}${id}${registry}`).join(","),
            "--rate",
            "60000",
            "--timeout",
            "2s",
            "--rows",
            "all",
            "--wide",
            "--json",
            json,
            "--markdown",
            markdown,
          ];
          const code = await within(
            main(argv, io, { startEmbedded: async () => ({ ...embedded, close: async () => {} }) }),
            60_000,
            "trustgate drift",
          );
          const output = printed.join("");
          const context = `jwks ${jwks}, answers ${JSON.stringify([...answers]).slice(0, 1500)}\nexit ${code}\n${output.slice(0, 3000)}`;
          expect([0, 2, 3, 4], context).toContain(code);
          // Without the service's key, nothing verifies.
          if (jwks !== "valid") expect(code, context).not.toBe(0);
          if (code === 2) {
            // A key set that cannot be read stops the run before the scan (documented: exit 2, one line that says so).
            expect(jwks, context).not.toBe("valid");
            expect(output, context).toMatch(/^trustgate: [^\n]*JWKS[^\n]*$/m);
            expectNoPartOf(output, SECRET, "output");
            expect(RAW_CONTROL.test(output.replace(/\n/g, "")), context).toBe(false);
            return;
          }
          const jsonText = readFileSync(json, "utf8");
          const markdownText = readFileSync(markdown, "utf8");
          const report = JSON.parse(jsonText) as { agents: { agentId: string; status: string; reason?: string }[] };
          // Nothing lost, nothing twice (one row per agent, however often and however it was spelled).
          expect(report.agents.map((row) => row.agentId).sort(), context).toEqual([...ids].sort());
          for (const row of report.agents) {
            statuses.set(row.status, (statuses.get(row.status) ?? 0) + 1);
            if (PROBLEM_STATUSES.has(row.status)) expect(row.reason?.trim(), `${row.agentId} ${row.status}\n${context}`).toBeTruthy();
          }
          if (report.agents.every((row) => PROBLEM_STATUSES.has(row.status))) expect(code, context).not.toBe(0);
          for (const [name, text] of Object.entries({ output, json: jsonText, markdown: markdownText })) expectNoPartOf(text, SECRET, name);
          for (const [name, text] of Object.entries({ output, markdown: markdownText })) {
            expect(RAW_CONTROL.test(text.replace(/\n/g, "")), `${name} holds a raw control character\n${context}`).toBe(false);
          }
          expect(markdownText).not.toContain("![img](");
        },
      ),
      { numRuns: 60, interruptAfterTimeLimit: 90_000 },
    );
    const verified = [...statuses].filter(([status]) => !PROBLEM_STATUSES.has(status)).reduce((n, [, count]) => n + count, 0);
    expect(verified, JSON.stringify([...statuses])).toBeGreaterThan(0);
    expect(statuses.get("error") ?? 0).toBeGreaterThan(0);
    expect(statuses.get("invalid-attestation") ?? 0).toBeGreaterThan(0);
  }, 150_000);

  it("an --issuer carrying a secret (credentials, a query, a fragment): refused at parsing, or kept out of every output", async () => {
    const issuer = fc.constantFrom(
      (api: string) => api.replace("http://", `http://user:${PASSWORD_SECRET}@`),
      (api: string) => `${api}/?key=${SECRET}`,
      (api: string) => `${api}/#${SECRET}`,
      (api: string) => `${api}?token=${SECRET}`,
      (api: string) => `${api.replace("http://", `http://${PASSWORD_SECRET}@`)}/`,
    );
    await fc.assert(
      fc.asyncProperty(issuer, agentAnswer, async (makeIssuer, spec) => {
        answers = new Map([["1", spec]]);
        jwksAnswer = "valid";
        const run = runCount++;
        const json = join(dir, `issuer-${run}.json`);
        const markdown = join(dir, `issuer-${run}.md`);
        const { printed, io } = capturedIo();
        const argv = ["drift", "--demo", "--api", apiUrl, "--issuer", makeIssuer(apiUrl), "--agents", "base:1", "--rate", "60000"];
        const code = await within(
          main([...argv, "--json", json, "--markdown", markdown], io, {
            startEmbedded: async () => ({ ...embedded, close: async () => {} }),
          }),
          60_000,
          "trustgate drift",
        );
        expect([0, 2, 3, 4]).toContain(code);
        const outputs: Record<string, string> = { output: printed.join("") };
        if (code !== 2) {
          outputs.json = readFileSync(json, "utf8");
          outputs.markdown = readFileSync(markdown, "utf8");
        }
        expectNoSecrets(outputs);
      }),
      { numRuns: 10, interruptAfterTimeLimit: 60_000 },
    );
  }, 120_000);
});
