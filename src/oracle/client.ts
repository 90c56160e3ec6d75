/**
 * The client type every oracle read takes.
 *
 * @packageDocumentation
 */
import type { Chain, Client, Transport } from "viem";

/** Any viem client (public, test or wallet) over any transport. */
export type AnyClient = Client<Transport, Chain | undefined>;
