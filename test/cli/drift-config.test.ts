import { describe, expect, it } from "vitest";
import { type DriftRunArgs, parseDriftArgs } from "../../src/cli/drift-args";
import { EMBEDDED_RATE_PER_MINUTE, type EmbeddedEndpoints, resolveDriftConfig } from "../../src/cli/drift-config";
import { InvalidArgumentError } from "../../src/errors";

const EMBEDDED: EmbeddedEndpoints = {
  rpcUrl: "http://127.0.0.1:40001",
  oracle: "0x1111111111111111111111111111111111111111",
  apiUrl: "http://127.0.0.1:40002",
  issuer: "http://127.0.0.1:40002",
  jwksUrl: "http://127.0.0.1:40002/.well-known/jwks.json",
};

function args(argv: string[]): DriftRunArgs {
  const parsed = parseDriftArgs(argv, { env: {}, now: () => new Date("2026-11-22T00:00:00Z") });
  if (parsed.kind !== "run") throw new Error("expected a run");
  return parsed;
}

describe("resolveDriftConfig", () => {
  it("with --rpc and --api: issuer is the API's origin, JWKS under the API, oracle the Base oracle", () => {
    const config = resolveDriftConfig(
      args(["--rpc", "https://rpc.example", "--api", "https://api.example/v1/", "--agents", "base:1", "--threshold", "60"]),
    );
    expect(config).toMatchObject({
      rpcUrl: "https://rpc.example",
      apiUrl: "https://api.example/v1",
      issuer: "https://api.example",
      jwks: "https://api.example/v1/.well-known/jwks.json",
      oracle: "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4",
      threshold: 60,
      scope: { kind: "list" },
    });
  });

  it("in the embedded default, takes every endpoint from the embedded environment", () => {
    const config = resolveDriftConfig(args(["--demo"]), EMBEDDED);
    expect(config).toMatchObject({
      rpcUrl: EMBEDDED.rpcUrl,
      oracle: EMBEDDED.oracle,
      apiUrl: EMBEDDED.apiUrl,
      issuer: EMBEDDED.issuer,
      jwks: EMBEDDED.jwksUrl,
      scope: { kind: "all" },
      ratePerMinute: EMBEDDED_RATE_PER_MINUTE,
    });
  });

  it("lifts the client-side rate limit only for the embedded service, and never over --rate", () => {
    expect(resolveDriftConfig(args(["--demo", "--rpc", "https://rpc.example", "--all"]), EMBEDDED).ratePerMinute).toBe(
      EMBEDDED_RATE_PER_MINUTE,
    );
    expect(resolveDriftConfig(args(["--demo", "--rate", "12"]), EMBEDDED).ratePerMinute).toBe(12);
    expect(resolveDriftConfig(args(["--demo", "--api", "https://api.example", "--all"]), EMBEDDED)).not.toHaveProperty("ratePerMinute");
  });

  it("reads the embedded chain in the calls it asks for, and any other chain in the reader's default", () => {
    const embedded = { ...EMBEDDED, readChunkSize: 25 };
    expect(resolveDriftConfig(args(["--demo"]), embedded).readChunkSize).toBe(25);
    expect(resolveDriftConfig(args(["--demo", "--api", "https://api.example", "--all"]), embedded).readChunkSize).toBe(25);
    expect(resolveDriftConfig(args(["--demo", "--rpc", "https://rpc.example", "--all"]), embedded)).not.toHaveProperty("readChunkSize");
    expect(resolveDriftConfig(args(["--demo"]), EMBEDDED)).not.toHaveProperty("readChunkSize");
  });

  it("with only --rpc, keeps the real chain and Base oracle and takes the service from the embedded environment", () => {
    const config = resolveDriftConfig(args(["--demo", "--rpc", "https://rpc.example", "--all"]), EMBEDDED);
    expect(config.rpcUrl).toBe("https://rpc.example");
    expect(config.oracle).toBe("0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4");
    expect(config.apiUrl).toBe(EMBEDDED.apiUrl);
    expect(config.jwks).toBe(EMBEDDED.jwksUrl);
  });

  it("with only --api, takes the embedded chain and oracle and derives issuer and JWKS from --api", () => {
    const config = resolveDriftConfig(args(["--demo", "--api", "https://api.example", "--all"]), EMBEDDED);
    expect(config.rpcUrl).toBe(EMBEDDED.rpcUrl);
    expect(config.oracle).toBe(EMBEDDED.oracle);
    expect(config.issuer).toBe("https://api.example");
    expect(config.jwks).toBe("https://api.example/.well-known/jwks.json");
  });

  it("keeps --oracle, --issuer and --jwks over every default", () => {
    const config = resolveDriftConfig(
      args([
        "--demo",
        "--oracle",
        "0x2222222222222222222222222222222222222222",
        "--issuer",
        "https://issuer.example",
        "--jwks",
        "https://keys.example/k.json",
      ]),
      EMBEDDED,
    );
    expect(config.oracle).toBe("0x2222222222222222222222222222222222222222");
    expect(config.issuer).toBe("https://issuer.example");
    expect(config.jwks).toBe("https://keys.example/k.json");
  });

  it("passes --attested-oracle on, beside the oracle (the upstream it should fall back on); none without it", () => {
    const attested = "0x3333333333333333333333333333333333333333";
    const config = resolveDriftConfig(
      args(["--rpc", "https://rpc.example", "--api", "https://api.example", "--all", "--attested-oracle", attested]),
    );
    expect(config.attestedOracle).toBe(attested);
    expect(config.oracle).toBe("0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4");
    expect(resolveDriftConfig(args(["--demo"]), EMBEDDED)).not.toHaveProperty("attestedOracle");
  });

  it("refuses to build a configuration with an endpoint missing and no embedded environment", () => {
    expect(() => resolveDriftConfig(args(["--demo"]))).toThrow(InvalidArgumentError);
  });
});
