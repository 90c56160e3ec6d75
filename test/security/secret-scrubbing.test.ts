/**
 * The API key never leaves the process through an error, whatever the service echoes: the transport scrubs it from a
 * body before anything parses, cuts, quotes or keeps that body, so no field of the error, `JSON.stringify(error)` or
 * `util.inspect(error)` holds any part of it. Real loopback servers.
 */
import { inspect } from "node:util";
import { afterEach, describe, expect, test } from "vitest";
import { main } from "../../src/cli/main.js";
import { createTrustApiClient } from "../../src/index.js";
import { type HostileServer, startHostileServer } from "./hostile-service.js";

const KEY = "tgk_live_9fQ2xLr7Wm4Tz8Kc3Vb6Nd1Hs5Pq0";

const servers: HostileServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** A server answering every request with `status` and `body` (as given: already JSON or not). */
async function answering(status: number, body: string): Promise<string> {
  const server = await startHostileServer((_req, res) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(body);
  });
  servers.push(server);
  return server.url;
}

/** Every way an error leaves a process: message, JSON, inspection (with causes), and each own field. */
function everyOutput(error: unknown): string {
  const fields = Object.entries(error as object).map(
    ([name, value]) => `${name}=${typeof value === "string" ? value : JSON.stringify(value)}`,
  );
  return [
    String(error),
    (error as Error).message,
    JSON.stringify(error),
    inspect(error, { depth: null, showHidden: true }),
    ...fields,
  ].join("\n");
}

/** Fails when any 6 consecutive characters of the key appear in `text`. */
function expectNoPartOfKey(text: string): void {
  for (let i = 0; i + 6 <= KEY.length; i++) expect(text, `key characters ${i}–${i + 5} leaked`).not.toContain(KEY.slice(i, i + 6));
}

async function failureOf(url: string): Promise<unknown> {
  const api = createTrustApiClient({ baseUrl: url, apiKey: KEY, retries: 0, rateLimit: false });
  return api.trustCheck({ id: 1, chain: "base" }).then(
    () => expect.unreachable("the request should fail"),
    (error: unknown) => error,
  );
}

describe("an API key echoed by the service", () => {
  test("in a 2xx body that is not JSON, across the 80-character cut of the error's quote", async () => {
    const prefix = "Unauthorized: the key you sent does not grant this route; it was ";
    const error = await failureOf(await answering(200, `${prefix}${KEY} (see the docs)`));
    expect(error).toMatchObject({ code: "INVALID_RESPONSE" });
    expect(everyOutput(error)).toContain("***");
    expectNoPartOfKey(everyOutput(error));
  });

  test("in a JSON error body: neither the message nor the error's body field keeps it", async () => {
    const body = JSON.stringify({
      error: { code: "unauthorized", message: `invalid key ${KEY}` },
      echo: { authorization: `Bearer ${KEY}` },
    });
    const error = await failureOf(await answering(401, body));
    expect(error).toMatchObject({ code: "HTTP_ERROR", status: 401, errorMessage: "invalid key ***" });
    expect((error as { body: unknown }).body).toEqual({
      error: { code: "unauthorized", message: "invalid key ***" },
      echo: { authorization: "Bearer ***" },
    });
    expectNoPartOfKey(everyOutput(error));
  });

  test("written with JSON escapes, which only spell it out once parsed", async () => {
    const escaped = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
    const error = await failureOf(await answering(403, `{"error":{"code":"forbidden","message":"m"},"key":"${escaped}"}`));
    expect(error).toMatchObject({ code: "HTTP_ERROR", status: 403 });
    expectNoPartOfKey(everyOutput(error));
  });

  test("in a JSON body too large to be an answer: the size error holds no part of it either", async () => {
    const error = await (async () => {
      const url = await answering(500, JSON.stringify({ error: { code: "x", message: `${KEY} `.repeat(10) } }));
      const api = createTrustApiClient({ baseUrl: url, apiKey: KEY, retries: 0, rateLimit: false, maxResponseBytes: 64 });
      return api.trustCheck({ id: 1, chain: "base" }).catch((e: unknown) => e);
    })();
    expect(error).toMatchObject({ code: "RESPONSE_TOO_LARGE", limitBytes: 64 });
    expectNoPartOfKey(everyOutput(error));
  });
});

describe("the command line", () => {
  test("never echoes an --api-key value, not even in the hint for a value that starts with a dash", async () => {
    const out: string[] = [];
    const io = { stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => out.push(s) }, env: {}, isTTY: false };
    const code = await main(["drift", "--rpc", "http://127.0.0.1:9", "--api", "http://127.0.0.1:9", "--api-key", `-9${KEY}`], io);
    expect(code).toBe(2);
    expect(out.join("")).toContain("--api-key=<value>");
    expectNoPartOfKey(out.join(""));
  });
});
