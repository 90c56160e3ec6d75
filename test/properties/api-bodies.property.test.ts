/**
 * Property-based tests of what the trust service answers, through the public API client (`createTrustApiClient`)
 * talking to a real loopback HTTP server (127.0.0.1, port 0).
 *
 * Input covered: per request, a generated answer — any status (2xx to 5xx, redirects, 429 and 503), garbage
 * `X-RateLimit-*` and `Retry-After` headers, a wrong or missing content type, bodies that are valid responses with a
 * value anywhere replaced by a random one, random JSON, truncated JSON, JSON nested tens of thousands deep, HTML,
 * binary, empty bodies, a body cut short below its `Content-Length`, a connection dropped — and the API key echoed
 * by the service, as it is or written with JSON escapes, in error messages, in fields of a successful body and in
 * headers; and the same through the MCP client (`client.mcp`: JSON-RPC envelopes with random results, errors and ids).
 *
 * Also: any arguments to the client's methods, and redirect chains that lead to another origin.
 *
 * Property: every call settles (no hang) and resolves to a parsed value or rejects with one of the kit's typed
 * errors; neither the value nor the error's message, `JSON.stringify(err)` or `util.inspect(err, {depth: 10})` holds
 * any part of the key; no promise rejection is left unhandled; bad arguments are refused before any request; a
 * redirect to another origin is refused, and that origin receives no request at all, the key least of all.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTrustApiClient } from "../../src/api/client.js";
import { RedirectRefusedError } from "../../src/errors.js";
import { generateSigningKey } from "../../src/harness/signing.js";
import { buildTrustCheckResponse } from "../support/attestations.js";
import { errorForms, ESC, expectKitError, expectNoPartOf, hostileJsonValue, hostileString, SECRET, within, replaceAt } from "./support.js";

/** One answer of the server. */
interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Buffer;
  /** `cut`: announce more than is sent, then drop the connection; `drop`: drop it before answering. */
  readonly mode: "normal" | "cut" | "drop";
}

let script: Answer[] = [];
let served = 0;
let baseUrl = "";
const sockets = new Set<Socket>();
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  req.resume();
  const answer = script[Math.min(served++, script.length - 1)]!;
  if (answer.mode === "drop") {
    req.socket.destroy();
    return;
  }
  const body = typeof answer.body === "string" ? Buffer.from(answer.body) : answer.body;
  try {
    res.writeHead(answer.status, { ...answer.headers, "content-length": String(answer.mode === "cut" ? body.length + 100 : body.length) });
  } catch {
    res.writeHead(answer.status, { "content-length": String(body.length) });
  }
  if (answer.mode === "cut") {
    res.write(body);
    setTimeout(() => req.socket.destroy(), 5);
    return;
  }
  res.end(body);
});

let validBody: Record<string, unknown>;
beforeAll(async () => {
  process.on("unhandledRejection", onUnhandled);
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  validBody = (await buildTrustCheckResponse(await generateSigningKey("rnwy-trust-v2"))) as unknown as Record<string, unknown>;
});
afterAll(async () => {
  process.off("unhandledRejection", onUnhandled);
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The key written with JSON escapes, every character `\uXXXX`. */
const ESCAPED_KEY = [...SECRET].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");

const bodyText: fc.Arbitrary<string | Buffer> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(null).map(() => JSON.stringify(validBody)) },
  {
    weight: 5,
    arbitrary: fc
      .tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), hostileJsonValue())
      .map(([choices, replacement]) => JSON.stringify(replaceAt(validBody, choices, replacement)) ?? ""),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(hostileString(), fc.constantFrom(SECRET, ESCAPED_KEY, `Bearer ${SECRET}`, `${SECRET}${SECRET}`))
      .map(
        ([text, key]) =>
          `{"error":{"code":"unauthorized","message":"invalid key ${key} ${JSON.stringify(text).slice(1, -1)}"},"echo":"${key}"}`,
      ),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), fc.constantFrom(SECRET, ESCAPED_KEY)).map(([choices, key]) => {
      const text = JSON.stringify(replaceAt(validBody, choices, "KEY_HERE")) ?? "";
      return text.replace('"KEY_HERE"', `"${key}"`);
    }),
  },
  { weight: 2, arbitrary: hostileJsonValue().map((v) => JSON.stringify(v) ?? "") },
  {
    weight: 2,
    arbitrary: fc.nat().map((n) => {
      const text = JSON.stringify(validBody);
      return text.slice(0, n % text.length);
    }),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(1_000, 20_000, 100_000), fc.constantFrom("[", '{"a":'))
      .map(([depth, open]) => open.repeat(depth) + (open === "[" ? "]" : "1}").repeat(depth)),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom("", " ", "<html><body>502 Bad Gateway</body></html>", `${ESC}[2J${SECRET}`, "null", "[]", "{}", "\uFEFF{}"),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) },
  { weight: 1, arbitrary: hostileString() },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.oneof(
          fc.constant(null).map(() => ({ content: [{ type: "text", text: JSON.stringify(validBody) }] })),
          fc.constantFrom(SECRET, ESCAPED_KEY).map((key) => ({ content: [{ type: "text", text: `invalid key ${key}` }], isError: true })),
          hostileJsonValue().map((text) => ({ content: [{ type: "text", text: JSON.stringify(text) ?? "" }] })),
          hostileJsonValue(),
        ),
        fc.oneof(fc.constant(1), hostileJsonValue(1)),
        fc.boolean(),
      )
      .map(
        ([result, id, asError]) =>
          JSON.stringify(
            asError
              ? { jsonrpc: "2.0", id, error: { code: -32000, message: `invalid key ${SECRET}`, data: { key: SECRET, result } } }
              : { jsonrpc: "2.0", id, result },
          ) ?? "",
      ),
  },
);

/** Header values as a broken or hostile service sends them (only characters HTTP allows in a header). */
const headerValue = fc.oneof(
  fc.constantFrom(
    "0",
    "1",
    "-1",
    "30",
    "300",
    "1e309",
    "NaN",
    "Infinity",
    "999999999999999999999",
    "1.5",
    "",
    " ",
    "Wed, 21 Oct 2015 07:28:00 GMT",
    "Thu, 01 Jan 2099 00:00:00 GMT",
    "0x10",
    SECRET,
  ),
  fc.string({ unit: fc.constantFrom(..." 0123456789abcdefXYZ.,;:-=/"), maxLength: 30 }),
);

const answer: fc.Arbitrary<Answer> = fc.record({
  status: fc.oneof(
    { weight: 4, arbitrary: fc.constant(200) },
    { weight: 4, arbitrary: fc.constantFrom(201, 204, 301, 302, 400, 401, 403, 404, 418, 422, 429, 429, 500, 502, 503, 503, 504) },
    { weight: 1, arbitrary: fc.integer({ min: 200, max: 599 }) },
  ),
  headers: fc.record(
    {
      "content-type": fc.constantFrom(
        "application/json",
        "application/json; charset=utf-8",
        "text/html",
        "text/plain",
        "application/octet-stream",
        "x/garbage",
      ),
      "x-ratelimit-limit": headerValue,
      "x-ratelimit-remaining": headerValue,
      "x-ratelimit-reset": headerValue,
      "retry-after": headerValue,
      "x-echo": fc.constant(SECRET),
      location: fc.constantFrom("/api/stats", "http://127.0.0.1:1/", "//127.0.0.1:1/x", "::garbage"),
    },
    { requiredKeys: [] },
  ),
  body: bodyText,
  mode: fc.constantFrom<Answer["mode"]>("normal", "normal", "normal", "normal", "normal", "normal", "cut", "drop"),
});

type Call =
  "trustCheck" | "agents" | "stats" | "riskTerms" | "iterateAgents" | "explorerProfile" | "mcpTrustCheck" | "mcpTools" | "mcpCallTool";
const calls: Call[] = [
  "trustCheck",
  "agents",
  "stats",
  "riskTerms",
  "iterateAgents",
  "explorerProfile",
  "mcpTrustCheck",
  "mcpTools",
  "mcpCallTool",
];

async function callClient(call: Call): Promise<unknown> {
  let clock = Date.now();
  const client = createTrustApiClient({
    baseUrl,
    apiKey: SECRET,
    timeoutMs: 1_500,
    retries: { retries: 1, rateLimitRetries: 1, baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 50 },
    // A fake clock: the limiter's waits (a service announcing 1 request a minute) pass at once.
    now: () => clock,
    sleep: async (ms) => {
      clock += ms;
    },
  });
  switch (call) {
    case "trustCheck":
      return client.trustCheck({ id: 1487, chain: "base" });
    case "agents":
      return client.agents({ limit: 10 });
    case "stats":
      return client.stats();
    case "riskTerms":
      return client.riskTerms({ agentId: 1487, chain: "base" });
    case "explorerProfile":
      return client.explorerProfile({ id: 1487, chain: "base" });
    case "mcpTrustCheck":
      return client.mcp.trustCheck({ id: 1487, chain: "base" } as never);
    case "mcpTools":
      return client.mcp.listTools();
    case "mcpCallTool":
      return client.mcp.callTool("network_stats", {});
    case "iterateAgents": {
      const items: unknown[] = [];
      for await (const item of client.iterateAgents({ limit: 10 })) {
        items.push(item);
        // Three pages at most: each may take up to two attempts of `timeoutMs` (a slow answer repeated on every page),
        // which keeps a slow but finite pager well inside the 15 s that tells a hang from slowness.
        if (items.length > 20) break;
      }
      return items;
    }
  }
}

/** Outcomes seen, by kind, so that a property that never reached one side cannot pass unnoticed. */
const seen = new Map<string, number>();

describe("API bodies (property)", () => {
  it("any answer of the service: a parsed value or a typed error, the key nowhere, nothing left unhandled", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(answer, { minLength: 1, maxLength: 4 }),
        fc.constantFrom<Call>("trustCheck", "trustCheck", "trustCheck", ...calls),
        async (answers, call) => {
          script = answers;
          served = 0;
          let outcome: { ok: true; value: unknown } | { ok: false; error: unknown };
          try {
            outcome = { ok: true, value: await within(callClient(call), 15_000, `${call}`) };
          } catch (error) {
            outcome = { ok: false, error };
          }
          const kind = outcome.ok ? "value" : ((outcome.error as { code?: string }).code ?? "raw");
          seen.set(kind, (seen.get(kind) ?? 0) + 1);
          if (outcome.ok) {
            expect(outcome.value).not.toBeUndefined();
            expectNoPartOf(JSON.stringify(outcome.value) ?? "", SECRET, `the value of ${call}`);
          } else {
            expect(String((outcome.error as Error)?.message)).not.toMatch(/did not settle/);
            expectKitError(outcome.error);
            for (const [what, text] of Object.entries(errorForms(outcome.error))) expectNoPartOf(text, SECRET, `error ${what}`);
          }
          await new Promise((resolve) => setImmediate(resolve));
          expect(unhandled).toEqual([]);
        },
      ),
      { numRuns: 300, interruptAfterTimeLimit: 50_000 },
    );
    for (const kind of ["value", "HTTP_ERROR", "INVALID_RESPONSE", "NETWORK_ERROR"]) expect(seen.get(kind) ?? 0, kind).toBeGreaterThan(0);
  }, 70_000);

  it("any arguments to the client's methods: refused with a typed error before any request, or sent", async () => {
    // The caller's own arguments are quoted when refused (the kit cannot tell a secret there): the key is only the
    // client's apiKey, so arguments never hold it here.
    const arg = fc.oneof(
      hostileString(),
      hostileJsonValue(1).filter((v) => !(JSON.stringify(v) ?? "").includes(SECRET)),
      fc.constantFrom<unknown>(
        1487,
        "1487",
        1487n,
        -1,
        2 ** 53,
        "0x10",
        "base",
        "8453",
        8453,
        "erc8004",
        "constructor",
        "__proto__",
        "toString",
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("trustCheck", "explorerProfile", "riskTerms", "agents", "reviewer", "entity", "walletScore", "compare"),
        arg,
        arg,
        arg,
        async (method, a, b, c) => {
          script = [{ status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify(validBody), mode: "normal" }];
          served = 0;
          const client = createTrustApiClient({ baseUrl, apiKey: SECRET, timeoutMs: 1_500, retries: 0, rateLimit: false });
          const callers: Record<string, () => Promise<unknown>> = {
            trustCheck: () => client.trustCheck({ id: a, chain: b, registry: c } as never),
            explorerProfile: () => client.explorerProfile({ id: a, chain: b, registry: c } as never),
            riskTerms: () => client.riskTerms({ agentId: a, chain: b, registry: c } as never),
            agents: () => client.agents({ chain: a, registry: b, limit: c } as never),
            reviewer: () => client.reviewer({ address: a, chain: b } as never),
            entity: () => client.entity(a as never),
            walletScore: () => client.walletScore(a as never),
            compare: () => client.compare([a, b, c] as never, c as never),
          };
          try {
            await within(callers[method]!(), 10_000, method);
          } catch (error) {
            expectKitError(error);
            if (["INVALID_ARGUMENT", "UNKNOWN_CHAIN"].includes(error.code))
              expect(served, `${method} sent a request before refusing`).toBe(0);
            for (const [what, text] of Object.entries(errorForms(error))) expectNoPartOf(text, SECRET, `error ${what}`);
          }
        },
      ),
      { numRuns: 300, interruptAfterTimeLimit: 30_000 },
    );
  }, 60_000);

  it("a redirect to another origin, after any chain of same-origin ones: refused, and the other origin receives nothing", async () => {
    const elsewhere: string[] = [];
    const other = createServer((req, res) => {
      req.resume();
      elsewhere.push(String(req.headers.authorization ?? ""));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ totalAgents: 1 }));
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.constantFrom(301, 302, 303, 307, 308), fc.constantFrom("other", "same")), {
            minLength: 1,
            maxLength: 4,
          }),
          fc.constantFrom<Call>("stats", "trustCheck", "riskTerms", "mcpTools"),
          async (hops, call) => {
            script = hops.map(([status, where]) => ({
              status,
              headers: { location: where === "same" ? "/api/stats" : `${otherUrl}/steal` },
              body: "",
              mode: "normal" as const,
            }));
            served = 0;
            elsewhere.length = 0;
            let failure: unknown;
            try {
              await within(callClient(call), 15_000, call);
            } catch (error) {
              expectKitError(error);
              failure = error;
            }
            expect(elsewhere, "requests that reached the other origin").toEqual([]);
            if (hops.some(([, where]) => where === "other")) {
              expect(failure).toBeInstanceOf(RedirectRefusedError);
              expect((failure as RedirectRefusedError).location).toBe(`${otherUrl}/steal`);
            }
          },
        ),
        { numRuns: 100, interruptAfterTimeLimit: 30_000 },
      );
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  }, 60_000);
});
