/**
 * The kit's errors as a caller narrows them: one code per class (a subclass that only adds detail shares its
 * parent's), reasons typed on the error, `AnyTrustgateError` narrowing on `code`, and the main functions'
 * `…ErrorType` unions naming what they throw. The type-level assertions (`expectTypeOf`) are checked by `tsc`; the
 * runtime ones by this run.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type AnyTrustgateError,
  ATTESTATION_FAILURE_REASONS,
  type AttestationFailureReason,
  AttestationVerificationError,
  CanonicalJsonError,
  ConfigurationError,
  DEPLOYMENT_FAILURE_REASONS,
  DeploymentError,
  type DeploymentFailureReason,
  DevnetError,
  GateReadError,
  HttpRequestError,
  InvalidArgumentError,
  InvalidResponseError,
  JwksUnavailableError,
  McpError,
  NetworkError,
  OracleReadError,
  OracleWriteError,
  RateLimitedError,
  RedirectRefusedError,
  ResponseTooLargeError,
  TimeoutError,
  TrustgateError,
  type TrustgateErrorCode,
  UnknownChainError,
  UnstorableAttestationError,
} from "../../src/errors";
import {
  assertAttestationValid,
  type AssertAttestationValidErrorType,
  type EvaluateTrustPolicyErrorType,
  type ReadGatePolicyErrorType,
  readTrustRecord,
  type ReadTrustRecordErrorType,
  type SignedAttestationVerification,
  type VerifyTrustAttestationErrorType,
} from "../../src/index";
import type { RunDriftErrorType } from "../../src/drift/entry";
import type { DeployErrorType } from "../../src/deploy/entry";

const ROOT = resolve(__dirname, "../..");

/** One instance of every class of {@link AnyTrustgateError}. */
const INSTANCES: readonly AnyTrustgateError[] = [
  new InvalidArgumentError("x"),
  new CanonicalJsonError("$", "NaN"),
  new UnstorableAttestationError("mars", ["base"]),
  new UnknownChainError("mars", undefined, ["base"]),
  new JwksUnavailableError("local", "x"),
  new AttestationVerificationError("expired", "x"),
  new HttpRequestError({ status: 500, method: "GET", url: "http://127.0.0.1/" }),
  new RateLimitedError({ status: 429, method: "GET", url: "http://127.0.0.1/" }, undefined),
  new RedirectRefusedError({ status: 302, method: "GET", url: "http://127.0.0.1/", location: "http://127.0.0.2/" }, "other origin"),
  new TimeoutError({ method: "GET", url: "http://127.0.0.1/", timeoutMs: 1 }),
  new NetworkError({ method: "GET", url: "http://127.0.0.1/" }),
  new InvalidResponseError("x"),
  new ResponseTooLargeError({ method: "GET", url: "http://127.0.0.1/", limitBytes: 1 }),
  new McpError({ method: "tools/call", rpcCode: -32601, rpcMessage: "x" }),
  new OracleReadError({ oracle: "0x0", failure: "reverted" }, "x"),
  new GateReadError("0x0", "x"),
  new ConfigurationError("x"),
  new DevnetError("x"),
  new DeploymentError("bad-config", "x"),
  new OracleWriteError("0x0", "x"),
];

/** The class right below TrustgateError in an error's chain: its parent's code is what a detail-only subclass keeps. */
function rootClass(error: AnyTrustgateError): unknown {
  let proto: object = Object.getPrototypeOf(error) as object;
  while (Object.getPrototypeOf(proto) !== TrustgateError.prototype) proto = Object.getPrototypeOf(proto) as object;
  return proto.constructor;
}

describe("error codes", () => {
  it("one code per class: two classes share a code only as detail-only subclasses of one class", () => {
    for (const a of INSTANCES) {
      for (const b of INSTANCES) {
        if (a !== b && a.code === b.code) expect(rootClass(a), `${a.name} and ${b.name} share ${a.code}`).toBe(rootClass(b));
      }
    }
    expect(new Set(INSTANCES.map(rootClass)).size).toBe(new Set(INSTANCES.map((error) => error.code)).size - 1); // one class, HttpRequestError, has a subclass with a code of its own (RateLimitedError)
    expect(new DeploymentError("failed", "x").code).toBe("DEPLOYMENT");
    expect(new DeploymentError("failed", "x").code).not.toBe(new ConfigurationError("x").code);
  });

  it("every instance is a TrustgateError whose name is its class's", () => {
    for (const error of INSTANCES) {
      expect(error).toBeInstanceOf(TrustgateError);
      expect(error.name).toBe(error.constructor.name);
    }
  });

  it("each class declares its code in its type, so narrowing on code gives the class", () => {
    expectTypeOf<DeploymentError["code"]>().toEqualTypeOf<"DEPLOYMENT">();
    expectTypeOf<ConfigurationError["code"]>().toEqualTypeOf<"CONFIGURATION">();
    expectTypeOf<RateLimitedError["code"]>().toEqualTypeOf<"RATE_LIMITED">();
    expectTypeOf<AnyTrustgateError["code"]>().toEqualTypeOf<TrustgateErrorCode>();
    const describe = (error: AnyTrustgateError): string => {
      if (error.code === "DEPLOYMENT") {
        expectTypeOf(error).toEqualTypeOf<DeploymentError>();
        expectTypeOf(error.reason).toEqualTypeOf<DeploymentFailureReason>();
        return `deployment: ${error.reason}`;
      }
      if (error.code === "ATTESTATION_INVALID") {
        expectTypeOf(error).toEqualTypeOf<AttestationVerificationError>();
        expectTypeOf(error.reason).toEqualTypeOf<AttestationFailureReason>();
        return `attestation: ${error.reason}`;
      }
      if (error.code === "ORACLE_READ_FAILED") return `read: ${error.failure}`;
      return error.code;
    };
    expect(INSTANCES.map(describe)).toEqual(
      expect.arrayContaining(["deployment: bad-config", "attestation: expired", "read: reverted", "CONFIGURATION"]),
    );
  });
});

describe("reasons typed on the error", () => {
  it("AttestationVerificationError.reason is an AttestationFailureReason, and assertAttestationValid throws the verdict's", () => {
    expectTypeOf<AttestationVerificationError["reason"]>().toEqualTypeOf<AttestationFailureReason>();
    const verdict = { valid: false, reason: "kid-not-accepted", message: "refused" } as unknown as SignedAttestationVerification;
    let thrown: unknown;
    try {
      assertAttestationValid(verdict);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AttestationVerificationError);
    const error = thrown as AssertAttestationValidErrorType;
    expect(error.reason).toBe("kid-not-accepted");
    expect(ATTESTATION_FAILURE_REASONS).toContain(error.reason);
  });

  it("DeploymentError's reasons are a list in code, and each is one the deployment code throws", () => {
    expectTypeOf<DeploymentError["reason"]>().toEqualTypeOf<DeploymentFailureReason>();
    // @ts-expect-error: a reason outside the list does not type-check.
    expect(new DeploymentError("no-such-reason", "x").reason).toBe("no-such-reason");
    const sources = [join(ROOT, "src/deploy"), join(ROOT, "scripts")].flatMap((dir) =>
      readdirSync(dir, { recursive: true, encoding: "utf8" })
        .filter((file) => file.endsWith(".ts"))
        .map((file) => readFileSync(join(dir, file), "utf8")),
    );
    const text = sources.join("\n");
    const unused = DEPLOYMENT_FAILURE_REASONS.filter((reason) => !text.includes(`"${reason}"`));
    expect(unused).toEqual([]);
    expect(new Set(DEPLOYMENT_FAILURE_REASONS).size).toBe(DEPLOYMENT_FAILURE_REASONS.length);
  });
});

describe("the main functions' …ErrorType", () => {
  it("name what each function throws", () => {
    expectTypeOf<ReadTrustRecordErrorType>().toEqualTypeOf<InvalidArgumentError | UnknownChainError>();
    expectTypeOf<ReadGatePolicyErrorType>().toEqualTypeOf<InvalidArgumentError | GateReadError>();
    expectTypeOf<VerifyTrustAttestationErrorType>().toEqualTypeOf<InvalidArgumentError>();
    expectTypeOf<EvaluateTrustPolicyErrorType>().toBeNever();
    expectTypeOf<RunDriftErrorType>().toEqualTypeOf<ConfigurationError | InvalidArgumentError>();
    expectTypeOf<DeployErrorType>().toEqualTypeOf<DeploymentError>();
    expectTypeOf<ReadTrustRecordErrorType>().toMatchTypeOf<AnyTrustgateError>();
  });

  it("readTrustRecord throws one of ReadTrustRecordErrorType for a bad key, before any request", async () => {
    const client = {
      request: async () => {
        throw new Error("must not be called");
      },
    } as never;
    const attempts = [readTrustRecord(client, { agentId: -1n, chainId: 8453 }), readTrustRecord(client, { agentId: 1n, chain: "mars" })];
    for (const attempt of attempts) {
      const error = (await attempt.then(
        () => null,
        (thrown: unknown) => thrown,
      )) as ReadTrustRecordErrorType | null;
      expect(error).toBeInstanceOf(TrustgateError);
      expect(["INVALID_ARGUMENT", "UNKNOWN_CHAIN"]).toContain(error!.code);
    }
  });
});
