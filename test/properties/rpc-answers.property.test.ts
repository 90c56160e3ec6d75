/**
 * Property-based tests of what a chain's JSON-RPC node answers, through the public oracle readers
 * (`readTrustRecords`, `readTrustRecord`) over viem's HTTP transport to a real loopback JSON-RPC server
 * (127.0.0.1, port 0).
 *
 * Input covered: per JSON-RPC method (`eth_blockNumber`, `eth_getCode`, `eth_call`), generated answers — well-formed
 * `getScore` answers with words that do or do not fit their types, Multicall3 `aggregate3` answers with random
 * success flags and return data (too short, too long, empty, fewer or more results than calls), random hex of any
 * length, odd-length and non-hex strings, numbers, `null`, JSON-RPC error objects with and without revert data
 * (`Error(string)` with hostile text, `Panic`, unknown selectors), HTTP errors, non-JSON bodies, empty bodies and
 * dropped connections — in every reader mode (`auto`, `multicall3`, `deployless-multicall3`, `eth-call`).
 *
 * Property: the read settles; nothing is lost — exactly one result per key asked, in order, each for its own key;
 * a record read has every value within its on-chain type (and `updatedAt` consistent with `hasScore`); a record not
 * read carries an `OracleReadError` (`ORACLE_READ_FAILED`) with a failure kind and a reason; nothing throws.
 */
import { createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import fc from "fast-check";
import { createPublicClient, encodeAbiParameters, encodeErrorResult, type Hex, http, parseAbi, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OracleReadError } from "../../src/errors.js";
import { readTrustRecord, readTrustRecords, type TrustRecordResult } from "../../src/oracle/index.js";
import { updatedAtDate } from "../../src/trust-record.js";
import { hostileString, within } from "./support.js";

/** An answer of the node to one JSON-RPC request. */
type RpcAnswer =
  | { kind: "result"; result: unknown }
  | { kind: "error"; code: number; message: string; data?: unknown }
  | { kind: "http"; status: number; body: string }
  | { kind: "drop" };

let answers: Record<string, RpcAnswer[]> = {};
const counters: Record<string, number> = {};
let url = "";
const sockets = new Set<Socket>();

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    let request: { id?: unknown; method?: string } = {};
    try {
      request = JSON.parse(Buffer.concat(chunks).toString("utf8")) as typeof request;
    } catch {
      // not JSON: answered by the default below
    }
    const method = request.method ?? "?";
    const list = answers[method] ?? answers.default ?? [{ kind: "result", result: null }];
    const n = counters[method] ?? 0;
    counters[method] = n + 1;
    const answer = list[n % list.length]!;
    if (answer.kind === "drop") {
      req.socket.destroy();
      return;
    }
    if (answer.kind === "http") {
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(answer.body);
      return;
    }
    const payload =
      answer.kind === "result"
        ? { jsonrpc: "2.0", id: request.id, result: answer.result }
        : {
            jsonrpc: "2.0",
            id: request.id,
            error: { code: answer.code, message: answer.message, ...(answer.data !== undefined ? { data: answer.data } : {}) },
          };
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(payload));
  });
});

beforeAll(async () => {
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const word = fc.oneof(
  fc.bigInt({ min: 0n, max: 255n }),
  fc.bigInt({ min: 0n, max: 2n ** 40n - 1n }),
  fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }),
  fc.constantFrom(0n, 1n, 95n, 256n, 2n ** 40n, 2n ** 255n, 2n ** 256n - 1n),
);

/** A `getScore` answer: four words (each fitting its type or not), maybe with bytes cut off or added. */
const scoreAnswer: fc.Arbitrary<Hex> = fc
  .tuple(fc.tuple(word, word, word, word), fc.integer({ min: -40, max: 40 }))
  .map(([words, trim]) => {
    const hex = encodeAbiParameters(
      [{ type: "uint256" }, { type: "uint256" }, { type: "uint256" }, { type: "uint256" }],
      words as [bigint, bigint, bigint, bigint],
    );
    return (trim < 0 ? hex.slice(0, Math.max(2, hex.length + trim * 2)) : hex + "00".repeat(trim)) as Hex;
  });

const revertData: fc.Arbitrary<Hex> = fc.oneof(
  hostileString().map((text) => encodeErrorResult({ abi: parseAbi(["error Error(string)"]), errorName: "Error", args: [text] })),
  fc
    .bigInt({ min: 0n, max: 2n ** 256n - 1n })
    .map((code) => encodeErrorResult({ abi: parseAbi(["error Panic(uint256)"]), errorName: "Panic", args: [code] })),
  fc.uint8Array({ maxLength: 70 }).map((bytes) => toHex(bytes)),
  fc.constant("0x" as Hex),
);

/** An `aggregate3` answer with `n` results (maybe not the number of calls). */
const aggregateAnswer: fc.Arbitrary<Hex> = fc
  .array(fc.tuple(fc.boolean(), fc.oneof(scoreAnswer, revertData)), { maxLength: 8 })
  .map((results) =>
    encodeAbiParameters(
      [
        {
          type: "tuple[]",
          components: [
            { name: "success", type: "bool" },
            { name: "returnData", type: "bytes" },
          ],
        },
      ],
      [results.map(([success, returnData]) => ({ success, returnData }))],
    ),
  );

const garbageResult = fc.oneof(
  fc.uint8Array({ maxLength: 300 }).map((bytes) => toHex(bytes)),
  fc.constantFrom<unknown>(
    "0x",
    "0x0",
    "0xzz",
    "0x123",
    "zz",
    "",
    null,
    0,
    1.5,
    true,
    [],
    {},
    `0x${"g".repeat(256)}`,
    `0x${"f".repeat(2000)}`,
  ),
  hostileString(),
);

const errorAnswer: fc.Arbitrary<RpcAnswer> = fc.oneof(
  revertData.map((data): RpcAnswer => ({ kind: "error", code: 3, message: "execution reverted", data })),
  fc.tuple(fc.integer({ min: -33000, max: 100 }), hostileString()).map(([code, message]): RpcAnswer => ({ kind: "error", code, message })),
  fc
    .tuple(fc.constantFrom(400, 404, 429, 500, 502, 503), fc.constantFrom("", "not json", "<html>", '{"jsonrpc":"2.0"', "{}"))
    .map(([status, body]): RpcAnswer => ({ kind: "http", status, body })),
  fc.constant<RpcAnswer>({ kind: "drop" }),
);

const callAnswer: fc.Arbitrary<RpcAnswer> = fc.oneof(
  { weight: 4, arbitrary: fc.oneof(scoreAnswer, aggregateAnswer).map((result): RpcAnswer => ({ kind: "result", result })) },
  { weight: 2, arbitrary: garbageResult.map((result): RpcAnswer => ({ kind: "result", result })) },
  { weight: 2, arbitrary: errorAnswer },
);
const blockAnswer: fc.Arbitrary<RpcAnswer> = fc.oneof(
  { weight: 4, arbitrary: fc.bigInt({ min: 0n, max: 2n ** 64n }).map((n): RpcAnswer => ({ kind: "result", result: toHex(n) })) },
  { weight: 1, arbitrary: garbageResult.map((result): RpcAnswer => ({ kind: "result", result })) },
  { weight: 1, arbitrary: errorAnswer },
);
const codeAnswer: fc.Arbitrary<RpcAnswer> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom("0x", "0x6080604052").map((result): RpcAnswer => ({ kind: "result", result })) },
  { weight: 1, arbitrary: garbageResult.map((result): RpcAnswer => ({ kind: "result", result })) },
  { weight: 1, arbitrary: errorAnswer },
);

const keysArbitrary = fc.array(
  fc.record({
    agentId: fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), fc.integer({ min: 0, max: 100_000 }).map(BigInt)),
    chainId: fc.constantFrom(8453, 1, 56),
    registry: fc.constantFrom("erc8004", "olas", "virtuals"),
  }),
  { minLength: 1, maxLength: 6 },
);

/** Checks one result against the key it was asked for. */
function checkResult(result: TrustRecordResult, key: { agentId: bigint; chainId: number; registry: string }, context: string): void {
  expect(result.key.agentId, context).toBe(key.agentId);
  expect(result.key.chainId, context).toBe(key.chainId);
  expect(result.key.registry, context).toBe(key.registry);
  if (result.ok) {
    for (const value of [result.score, result.tier, result.sybilSeverity]) {
      expect(Number.isInteger(value) && value >= 0 && value <= 255, context).toBe(true);
    }
    expect(Number.isSafeInteger(result.updatedAt) && result.updatedAt >= 0 && result.updatedAt < 2 ** 40, context).toBe(true);
    expect(result.hasScore, context).toBe(result.updatedAt !== 0);
    if (result.hasScore) expect(updatedAtDate(result)?.getTime(), context).toBe(result.updatedAt * 1000);
    else expect(updatedAtDate(result), context).toBeNull();
  } else {
    expect(result.error, context).toBeInstanceOf(OracleReadError);
    expect(result.error.code).toBe("ORACLE_READ_FAILED");
    expect(result.error.failure, context).toBeTypeOf("string");
    expect(result.error.shortMessage.trim(), context).not.toBe("");
  }
}

function client() {
  return createPublicClient({ transport: http(url, { retryCount: 0, timeout: 2_000 }) });
}

describe("RPC answers (property)", () => {
  it("any answers of the node, in any reader mode: one result per key, in order, a record within its types or an error with a reason", async () => {
    const outcomes = { ok: 0, failed: 0 };
    await fc.assert(
      fc.asyncProperty(
        keysArbitrary,
        fc.array(callAnswer, { minLength: 1, maxLength: 4 }),
        fc.array(blockAnswer, { minLength: 1, maxLength: 2 }),
        fc.array(codeAnswer, { minLength: 1, maxLength: 2 }),
        fc.constantFrom("auto", "multicall3", "deployless-multicall3", "eth-call") as fc.Arbitrary<
          "auto" | "multicall3" | "deployless-multicall3" | "eth-call"
        >,
        fc.integer({ min: 1, max: 4 }),
        async (keys, calls, blocks, codes, mode, chunkSize) => {
          answers = { eth_call: calls, eth_blockNumber: blocks, eth_getCode: codes };
          for (const method of Object.keys(counters)) delete counters[method];
          let results: TrustRecordResult[];
          try {
            results = await within(readTrustRecords(client(), { keys, mode, chunkSize }), 20_000, "readTrustRecords");
          } catch (error) {
            return expect.fail(`readTrustRecords threw: ${String(error)}`);
          }
          const context = `mode ${mode}, answers ${JSON.stringify(answers).slice(0, 1500)}`;
          expect(results, context).toHaveLength(keys.length);
          results.forEach((result, i) => {
            checkResult(result, keys[i]!, context);
            outcomes[result.ok ? "ok" : "failed"]++;
          });
        },
      ),
      { numRuns: 300, interruptAfterTimeLimit: 50_000 },
    );
    // Both sides were reached: the answers are not all refused, nor all accepted.
    expect(outcomes.ok).toBeGreaterThan(0);
    expect(outcomes.failed).toBeGreaterThan(0);
  }, 70_000);

  it("one record: any answer of the node gives a record within its types or an error with a reason", async () => {
    await fc.assert(
      fc.asyncProperty(keysArbitrary, fc.array(callAnswer, { minLength: 1, maxLength: 2 }), async (keys, calls) => {
        answers = { eth_call: calls, eth_blockNumber: [{ kind: "result", result: "0x10" }] };
        for (const method of Object.keys(counters)) delete counters[method];
        const key = keys[0]!;
        let result: TrustRecordResult;
        try {
          result = await within(readTrustRecord(client(), { ...key, blockNumber: 16n }), 10_000, "readTrustRecord");
        } catch (error) {
          return expect.fail(`readTrustRecord threw: ${String(error)}`);
        }
        checkResult(result, key, JSON.stringify(calls).slice(0, 1500));
      }),
      { numRuns: 300, interruptAfterTimeLimit: 30_000 },
    );
  }, 60_000);
});
