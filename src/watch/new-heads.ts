/**
 * New heads over a WebSocket (`eth_subscribe("newHeads")` through viem's `webSocket` transport): a wake-up for the
 * watch's loop, so that it polls the follower as soon as a block arrives instead of at its next interval. It only
 * wakes: the follower's polls read the chain, so a subscription that drops, stalls or never connects costs latency,
 * never a block, and polling stays the default and the fallback.
 *
 * @packageDocumentation
 */
import { createPublicClient, webSocket } from "viem";
import { watchBlockNumber } from "viem/actions";
import { InvalidArgumentError } from "../errors.js";
import { redactUrl, redactUrlsIn } from "../security/redact-url.js";
import { failureWithCause } from "../util/network-cause.js";

/** What {@link watchNewHeads} takes. */
export interface NewHeadsParameters {
  /** The node's WebSocket endpoint (`ws://` or `wss://`). */
  readonly url: string;
  /** Called with each new head's number. */
  readonly onHead: (blockNumber: bigint) => void;
  /**
   * Called once when the subscription fails (cannot connect, or the connection drops), with an error naming the
   * endpoint (redacted) and the cause. The subscription is then over: subscribe again to resume (polling goes on).
   */
  readonly onError?: (error: Error) => void;
}

/** A running subscription. */
export interface NewHeads {
  /** Ends the subscription and closes the socket. */
  close(): Promise<void>;
}

/**
 * Subscribes to new heads.
 *
 * @param parameters - The endpoint and the callbacks.
 * @returns The subscription; close it when the watch stops.
 * @throws {@link InvalidArgumentError} when the URL is not a `ws://` or `wss://` one.
 */
export function watchNewHeads(parameters: NewHeadsParameters): NewHeads {
  const endpoint = redactUrl(parameters.url);
  if (!/^wss?:\/\//i.test(parameters.url))
    throw new InvalidArgumentError(`a new-heads subscription needs a ws:// or wss:// URL, got ${endpoint}`);
  // No reconnection by viem: its reconnect loop prints its failures to the console, outside the watch's structured log.
  // A failure ends the subscription, reported once; the watch subscribes again when it chooses, polling meanwhile.
  const client = createPublicClient({ transport: webSocket(parameters.url, { retryCount: 0, reconnect: false }) });
  let ended = false;
  let unwatch = (): void => {};
  const close = async (): Promise<void> => {
    ended = true;
    unwatch();
    try {
      const socket = await client.transport.getRpcClient();
      socket.close();
    } catch {
      // never connected: nothing to close
    }
  };
  unwatch = watchBlockNumber(client, {
    poll: false,
    onBlockNumber: (blockNumber) => {
      if (!ended) parameters.onHead(blockNumber);
    },
    onError: (error) => {
      if (ended) return;
      void close();
      parameters.onError?.(
        new Error(`The new-heads subscription at ${endpoint} failed: ${redactUrlsIn(failureWithCause(error))}`, { cause: error }),
      );
    },
  });
  return { close };
}
