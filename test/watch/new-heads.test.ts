/**
 * The new-heads wake-up over a WebSocket, against the local Base chain's JSON-RPC server on loopback (which answers
 * WebSockets on its HTTP port): each mined block is announced with its number; an endpoint that refuses the
 * connection is reported with its URL and cause; an HTTP URL is refused.
 */
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors";
import { type BaseSimulation, startBaseSimulation } from "../../src/harness/devnet/base-simulation";
import { watchNewHeads } from "../../src/watch/new-heads";

let chain: BaseSimulation;

beforeAll(async () => {
  chain = await startBaseSimulation({ http: true });
}, 120_000);

afterAll(async () => chain?.close());

/** A loopback port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("watchNewHeads", () => {
  it("announces each block mined, with its number", async () => {
    const heads: bigint[] = [];
    let wake: (() => void) | undefined;
    const subscription = watchNewHeads({
      url: chain.rpcUrl!.replace(/^http/, "ws"),
      onHead: (number) => {
        heads.push(number);
        wake?.();
      },
    });
    try {
      const start = BigInt((await chain.provider.request({ method: "eth_blockNumber" })) as string);
      // Mine until the subscription (established asynchronously) has announced two blocks.
      for (let i = 0; heads.length < 2 && i < 50; i++) {
        const announced = new Promise<void>((resolve) => (wake = resolve));
        await chain.mine();
        await Promise.race([announced, new Promise((resolve) => setTimeout(resolve, 200))]);
      }
      expect(heads.length).toBeGreaterThanOrEqual(2);
      expect(heads.every((n) => n > start)).toBe(true);
      expect(heads.at(-1)! - heads.at(-2)!).toBe(1n);
    } finally {
      await subscription.close();
    }
  });

  it("reports an endpoint that refuses the connection, naming it and the cause, and ends the subscription", async () => {
    const url = `ws://127.0.0.1:${await closedPort()}`;
    const errors: Error[] = [];
    const failure = new Promise<void>((resolve) => {
      watchNewHeads({
        url,
        onHead: () => {},
        onError: (error) => {
          errors.push(error);
          resolve();
        },
      });
    });
    await failure;
    expect(errors[0]!.message).toBe(`The new-heads subscription at ${url} failed: connect ECONNREFUSED 127.0.0.1:${new URL(url).port}`);
  });

  it("refuses an HTTP URL", () => {
    expect(() => watchNewHeads({ url: chain.rpcUrl!, onHead: () => {} })).toThrow(InvalidArgumentError);
  });
});
