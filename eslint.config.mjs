// ESLint for the TypeScript (solhint lints the Solidity, Prettier formats): the recommended JavaScript and
// typescript-eslint rules, with formatting rules left to Prettier.
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "artifacts/",
      "cache/",
      "coverage/",
      "dist/",
      ".dist-next*/",
      "typechain-types/",
      "src/generated/",
      "deployments/",
      ".doc-test-*/",
      ".stryker-tmp/",
      "reports/",
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  prettier,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      // A variable a closure reads before its one assignment (a server's request handler, set up before
      // the server knows its own URL) must stay `let`.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Tests read untyped JSON bodies off the wire and mutate them on purpose.
    files: ["test/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
