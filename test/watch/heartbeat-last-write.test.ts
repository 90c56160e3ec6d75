// The oracle's last write found on the devnet (the embedded local Base chain over HTTP on loopback, the reference
// oracle holding last night's snapshot): the newest RecordAdded/RecordUpdated within the lookback, read backwards in
// growing windows, dated by the record's own updatedAt (the latest of its block), not by the block's time.
import { createPublicClient, custom, type EIP1193RequestFn } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { snapshotRecords } from "../../src/harness/devnet/nightly-snapshot";
import { findLastWrite, silenceCondition } from "../../src/watch/heartbeat";
import { type RefreshDevnet, startRefreshDevnet } from "../support/refresh-devnet";

let devnet: RefreshDevnet;
const head = () => devnet.clients.public.getBlockNumber({ cacheTime: 0 });

beforeAll(async () => {
  devnet = await startRefreshDevnet({ size: 8 });
}, 180_000);
afterAll(async () => devnet?.env.close());

describe("findLastWrite on the devnet", () => {
  it("finds the newest write behind 300 empty blocks, dated by the latest updatedAt its block wrote", async () => {
    const { simulation } = devnet.env;
    const [a, b] = snapshotRecords(devnet.env.snapshot.agents.filter((x) => x.chain === "base").slice(0, 2));
    const now = await simulation.latestTimestamp();
    const written = await simulation.publish([
      { ...a!, updatedAt: now - 100 },
      { ...b!, updatedAt: now - 10 },
    ]);
    await simulation.provider.request({ method: "hardhat_mine", params: ["0x12c"] });
    const toBlock = await head();
    expect(toBlock - written.blockNumber!).toBe(300n);
    const found = await findLastWrite(devnet.clients.public, devnet.env.oracle, { toBlock, lookbackBlocks: 1000n, maxBlockRange: 16n });
    expect(found).toEqual({ at: new Date((now - 10) * 1000), blockNumber: written.blockNumber });
    // the default request size finds the same
    expect(await findLastWrite(devnet.clients.public, devnet.env.oracle, { toBlock, lookbackBlocks: toBlock + 1n })).toEqual(found);
  });

  it("before that write: the snapshot's publish, an earlier block and an earlier time", async () => {
    const latest = (await findLastWrite(devnet.clients.public, devnet.env.oracle, { toBlock: await head(), lookbackBlocks: 1000n }))!;
    const earlier = await findLastWrite(devnet.clients.public, devnet.env.oracle, {
      toBlock: latest.blockNumber - 1n,
      lookbackBlocks: latest.blockNumber,
    });
    expect(earlier).not.toBeNull();
    expect(earlier!.blockNumber).toBeLessThan(latest.blockNumber);
    expect(earlier!.at.getTime()).toBeLessThan(latest.at.getTime());
    expect(earlier!.at.getTime()).toBeLessThanOrEqual(devnet.env.snapshotAt.getTime());
  });

  it("null when the lookback holds no write (only the empty blocks), or is empty", async () => {
    const toBlock = await head();
    expect(await findLastWrite(devnet.clients.public, devnet.env.oracle, { toBlock, lookbackBlocks: 200n, maxBlockRange: 64n })).toBeNull();
    expect(await findLastWrite(devnet.clients.public, devnet.env.oracle, { toBlock, lookbackBlocks: 0n })).toBeNull();
  });

  it("keys the silence on the oracle's own time: a record computed a day ago and written now is a day-old write", async () => {
    const { simulation } = devnet.env;
    const stale = devnet.env.snapshot.agents.find((x) => x.chain === "polygon")!;
    const [record] = snapshotRecords([stale]);
    const now = await simulation.latestTimestamp();
    const written = await simulation.publish([{ ...record!, updatedAt: now - 86_400 }]);
    const found = (await findLastWrite(devnet.clients.public, devnet.env.oracle, { toBlock: await head(), lookbackBlocks: 100n }))!;
    expect(found).toEqual({ at: new Date((now - 86_400) * 1000), blockNumber: written.blockNumber });
    const cadence = { kind: "max-silence", seconds: 26 * 3600 } as const;
    const at = (seconds: number) => new Date((now + seconds) * 1000);
    expect(silenceCondition({ oracle: devnet.env.oracle, lastWrite: found.at, cadence, now: at(3600) })).toBeNull();
    expect(silenceCondition({ oracle: devnet.env.oracle, lastWrite: found.at, cadence, now: at(3 * 3600) })?.kind).toBe("oracle-silent");
  });

  it("reads in halves a range the node refuses (a node that serves at most 4 blocks of logs a request)", async () => {
    await devnet.env.simulation.provider.request({ method: "hardhat_mine", params: ["0x64"] });
    let refused = 0;
    const limit: EIP1193RequestFn = async ({ method, params }) => {
      if (method === "eth_getLogs") {
        const [filter] = params as [{ fromBlock: string; toBlock: string }];
        if (BigInt(filter.toBlock) - BigInt(filter.fromBlock) >= 4n) {
          refused++;
          throw new Error("query exceeds the 4-block range");
        }
      }
      return devnet.clients.public.request({ method, params } as never);
    };
    const node = createPublicClient({ transport: custom({ request: limit }, { retryCount: 0 }) });
    const toBlock = await head();
    const expected = await findLastWrite(devnet.clients.public, devnet.env.oracle, { toBlock, lookbackBlocks: 1000n });
    expect(expected).not.toBeNull();
    expect(await findLastWrite(node, devnet.env.oracle, { toBlock, lookbackBlocks: 1000n, maxBlockRange: 64n })).toEqual(expected);
    expect(refused).toBeGreaterThan(0);
  });

  it("refuses a negative lookback and an empty request size", async () => {
    await expect(findLastWrite(devnet.clients.public, devnet.env.oracle, { toBlock: 10n, lookbackBlocks: -1n })).rejects.toThrow(
      /lookbackBlocks/,
    );
    await expect(
      findLastWrite(devnet.clients.public, devnet.env.oracle, { toBlock: 10n, lookbackBlocks: 5n, maxBlockRange: 0n }),
    ).rejects.toThrow(/maxBlockRange/);
  });
});
