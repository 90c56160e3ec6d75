/**
 * A local chain on Hardhat 3, through its public API only: a new network connection
 * (`network.create({ override })`) of the project's runtime (`import("hardhat")`, the one a Hardhat command
 * runs) or of a runtime made from Hardhat's defaults (`createHardhatRuntimeEnvironment` from `hardhat/hre`), and
 * `network.createServer` for loopback HTTP. Loaded only when the installed Hardhat is a 3.x (see `local-chain.ts`).
 *
 * The kit cannot compile against Hardhat 3's types (this repository builds with Hardhat 2), so the few members it
 * uses are described below, structurally.
 *
 * @packageDocumentation
 */
import { ConfigurationError } from "../../errors.js";
import { chooseConfigSource, HARDHAT_INSTALL_COMMAND, importHardhat, STANDALONE_BLOCK_GAS_LIMIT } from "./hardhat-network.js";
import type { LocalChain, LocalChainParameters } from "./local-chain-types.js";
import type { Eip1193Provider } from "./revert-transport.js";

/** The Node major Hardhat 3 runs on, at least. */
export const HARDHAT3_MIN_NODE_MAJOR = 22;

/** Name of the network a standalone runtime defines for the kit's chains. */
const STANDALONE_NETWORK = "trustgateLocalChain";

/** What the kit uses of a Hardhat 3 network connection. */
interface Hardhat3Connection {
  readonly provider: Eip1193Provider;
  close(): Promise<void>;
}

/** Parameters of `network.create` / `network.createServer` (the subset the kit passes). */
interface Hardhat3ConnectionParams {
  readonly network: string;
  readonly override: Record<string, unknown>;
}

/** What the kit uses of a Hardhat 3 runtime environment. */
interface Hardhat3Runtime {
  readonly config: { readonly networks: Readonly<Record<string, { readonly type: string }>> };
  readonly globalOptions: { readonly network?: string | undefined };
  readonly hooks: {
    registerHandlers(category: "network", handlers: Hardhat3NetworkHooks): void;
    unregisterHandlers(category: "network", handlers: Hardhat3NetworkHooks): void;
  };
  readonly network: {
    create(params: Hardhat3ConnectionParams): Promise<Hardhat3Connection>;
    createServer(
      params: Hardhat3ConnectionParams,
      hostname: string,
      port: number,
    ): Promise<{ listen(): Promise<{ address: string; port: number }>; close(): Promise<void> }>;
  };
}

/** The network hook the kit registers while a server is created, to reach the connection it serves. */
interface Hardhat3NetworkHooks {
  newConnection(context: unknown, next: (context: unknown) => Promise<Hardhat3Connection>): Promise<Hardhat3Connection>;
}

let standaloneRuntime: Promise<Hardhat3Runtime> | undefined;

/**
 * Starts a local chain on Hardhat 3: a new connection to an in-process (`edr-simulated`) network with the chain
 * id, and the fork, given as overrides.
 *
 * @param options - Chain id (resolved), HTTP, configuration source, fork.
 * @returns The chain.
 * @throws {@link ConfigurationError} when Node is older than Hardhat 3 needs, or Hardhat or the project's
 *   configuration cannot be loaded, or the project has no in-process network.
 */
export async function startHardhat3Chain(options: LocalChainParameters & { readonly chainId: number }): Promise<LocalChain> {
  const nodeMajor = Number(process.versions.node.split(".")[0]);
  if (nodeMajor < HARDHAT3_MIN_NODE_MAJOR) {
    throw new ConfigurationError(
      `Hardhat 3 needs Node ${HARDHAT3_MIN_NODE_MAJOR} or later, and this is Node ${process.versions.node}: run under Node ${HARDHAT3_MIN_NODE_MAJOR}+, or install Hardhat 2 (${HARDHAT_INSTALL_COMMAND})`,
    );
  }
  const source = await chooseConfigSource(options.hardhatConfig, async () => false);
  const runtime = source === "project" ? await projectRuntime() : await (standaloneRuntime ??= createStandaloneRuntime());
  const params: Hardhat3ConnectionParams = {
    network: source === "project" ? inProcessNetwork(runtime) : STANDALONE_NETWORK,
    override: {
      chainId: options.chainId,
      ...(options.fork ? { forking: { url: options.fork.url, blockNumber: options.fork.blockNumber } } : {}),
    },
  };
  if (!options.http) {
    const connection = await runtime.network.create(params);
    return { chainId: options.chainId, provider: connection.provider, rpcUrl: undefined, close: () => connection.close() };
  }
  // The server makes its own connection; a network hook, registered only meanwhile, hands it over so that the
  // chain's in-process provider is the very network the server serves.
  let served: Hardhat3Connection | undefined;
  const hooks: Hardhat3NetworkHooks = {
    async newConnection(context, next) {
      const connection = await next(context);
      served ??= connection;
      return connection;
    },
  };
  runtime.hooks.registerHandlers("network", hooks);
  let server: Awaited<ReturnType<Hardhat3Runtime["network"]["createServer"]>>;
  try {
    server = await runtime.network.createServer(params, "127.0.0.1", 0);
  } finally {
    runtime.hooks.unregisterHandlers("network", hooks);
  }
  const connection = served!;
  const { address, port } = await server.listen();
  return {
    chainId: options.chainId,
    provider: connection.provider,
    rpcUrl: `http://${address}:${port}`,
    close: async () => {
      await server.close();
      await connection.close();
    },
  };
}

/** The project's runtime: the one the running Hardhat command made, or one made from the project's configuration. */
async function projectRuntime(): Promise<Hardhat3Runtime> {
  try {
    return (await importHardhat<{ default: Hardhat3Runtime }>("hardhat")).default;
  } catch (error) {
    if (error instanceof ConfigurationError) throw error;
    throw new ConfigurationError(`Hardhat 3 could not load this project's configuration: ${firstLine(error)}`, { cause: error });
  }
}

async function createStandaloneRuntime(): Promise<Hardhat3Runtime> {
  const { createHardhatRuntimeEnvironment } = await importHardhat<{
    createHardhatRuntimeEnvironment(config: object): Promise<Hardhat3Runtime>;
  }>("hardhat/hre");
  try {
    return await createHardhatRuntimeEnvironment({
      networks: { [STANDALONE_NETWORK]: { type: "edr-simulated", blockGasLimit: STANDALONE_BLOCK_GAS_LIMIT } },
    });
  } catch (error) {
    standaloneRuntime = undefined;
    throw new ConfigurationError(`Hardhat 3 could not start a runtime from its defaults here: ${firstLine(error)}`, { cause: error });
  }
}

/** The network the command runs on (`--network`) when it is in process, else the project's `default` network. */
function inProcessNetwork(runtime: Hardhat3Runtime): string {
  const networks = runtime.config.networks;
  const running = runtime.globalOptions.network;
  if (running !== undefined && networks[running]?.type === "edr-simulated") return running;
  if (networks.default?.type === "edr-simulated") return "default";
  throw new ConfigurationError(
    'The harness\'s local chain needs an in-process network: give the Hardhat configuration\'s "default" network type "edr-simulated"',
  );
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split("\n")[0]!;
}
