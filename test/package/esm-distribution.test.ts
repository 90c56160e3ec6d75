import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const root = resolve(__dirname, "../..");

/**
 * Builds the ES-module distribution (`npm run build`) and uses it from a plain Node ESM program, the way
 * another project would after installing the kit: main entry, the `service` entry (in `dist/harness/`), a signed trust check
 * verified end to end over loopback HTTP.
 */
describe("the ESM distribution", () => {
  beforeAll(() => {
    execFileSync(process.execPath, [require.resolve("tsx/cli"), "scripts/build.ts"], { cwd: root, stdio: "pipe" });
  }, 180_000);

  it("marks dist/ as ES modules and points package exports at it", () => {
    expect(JSON.parse(readFileSync(join(root, "dist/package.json"), "utf8"))).toEqual({ type: "module" });
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      exports: Record<string, { import: string; require: { types: string; default: string }; default: string; types: string }>;
    };
    expect(pkg.exports["."]).toEqual({
      require: { types: "./dist/index.d.cts", default: "./dist/index.js" },
      types: "./dist/index.d.ts",
      import: "./dist/index.js",
      default: "./dist/index.js",
    });
    expect(readFileSync(join(root, pkg.exports["."]!.types), "utf8")).toContain("verifyTrustAttestation");
    expect(readFileSync(join(root, pkg.exports["."]!.require.types), "utf8")).toBe('export * from "./index.js";\n');
    // The drift job's, the deployer's and the pusher's entries, and the harness's, which point into dist/harness/.
    for (const [entry, file] of [
      ["./drift", "drift/entry"],
      ["./deploy", "deploy/entry"],
      ["./refresh", "refresh/entry"],
      ["./watch", "watch/entry"],
      ["./service", "harness/service/index"],
      ["./testing", "harness/testing/index"],
      ["./harness", "harness/index"],
    ]) {
      expect(pkg.exports[entry!]).toMatchObject({
        require: { types: `./dist/${file}.d.cts`, default: `./dist/${file}.js` },
        types: `./dist/${file}.d.ts`,
        import: `./dist/${file}.js`,
      });
      expect(readFileSync(join(root, `dist/${file}.js`), "utf8")).toMatch(/export/);
      // CommonJS declarations (TypeScript's Node16 module setting) re-export the entry's own declarations.
      expect(readFileSync(join(root, `dist/${file}.d.cts`), "utf8")).toBe(`export * from "./${basename(file!)}.js";\n`);
    }
  });

  it("runs from a plain Node ESM program: client → local service → verifyTrustAttestation", () => {
    const dir = mkdtempSync(join(tmpdir(), "trustgate-esm-"));
    const program = join(dir, "consumer.mjs");
    writeFileSync(
      program,
      `import * as kit from ${JSON.stringify(join(root, "dist/index.js"))};
import { startTrustService, createPopulation } from ${JSON.stringify(join(root, "dist/harness/service/index.js"))};
const service = await startTrustService({ population: createPopulation({ seed: 5, size: 30 }), rateLimit: false });
try {
  const client = kit.createTrustApiClient({ baseUrl: service.url, rateLimit: false });
  const agent = service.population.agents[7];
  const body = await client.trustCheck({ id: agent.agentId, chain: agent.chain, registry: agent.registry });
  const result = await kit.verifyTrustAttestation(body, { issuer: service.issuer, jwks: service.url + "/.well-known/jwks.json" });
  console.log(JSON.stringify({ valid: result.valid, kid: result.kid, score: body.score, expected: agent.score }));
} finally {
  await service.close();
}
`,
    );
    const output = execFileSync(process.execPath, [program], { encoding: "utf8" });
    const result = JSON.parse(output.trim()) as Record<string, unknown>;
    expect(result).toMatchObject({ valid: true, kid: "rnwy-trust-v2" });
    expect(result.score).toBe(result.expected);
  });
});
