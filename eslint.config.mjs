// Lint guards the project's structure (ARCHITECTURE.md): no import cycles, the emulator independent of
// src/, layers reached only from above. Type-only cycles are caught by dpdm in `npm run lint`, since
// import-x/no-cycle skips type imports.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import { importX } from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "node_modules/**",
      ".pulumi/**",
      "coverage/**",
      "examples/*/node_modules/**",
      "bench/programs/**",
      "tests/**/fixture*/**",
      "**/*.js",
      "**/*.mjs",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { "import-x": importX },
    settings: { "import-x/resolver-next": [createTypeScriptImportResolver({ project: "tsconfig.test.json" })] },
    rules: {
      "import-x/no-cycle": ["error", { maxDepth: Infinity }],
      "import-x/no-self-import": "error",
      // Record types are interfaces over derived types, so that signatures show their names.
      "@typescript-eslint/no-empty-object-type": ["error", { allowInterfaces: "with-single-extends" }],
      // Errors are rewritten with redacted messages; a \`cause\` would carry the unredacted original along.
      "preserve-caught-error": "off",
      // A closure may read a variable assigned once later (e.g. addresses known after listen).
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
    },
  },
  {
    // Tests read JSON bodies and match terminal escapes.
    files: ["tests/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off", "no-control-regex": "off" },
  },
  {
    files: ["emulator/**/*.ts"],
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [{ target: "./emulator", from: "./src", message: "the emulator is an independent implementation of the spec: it imports nothing from src/" }],
        },
      ],
    },
  },
  {
    files: ["src/api/**/*.ts"],
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            { target: "./src/api", from: "./src/provider", message: "the api client is the bottom layer" },
            { target: "./src/api", from: "./src/resources", message: "the api client is the bottom layer" },
            { target: "./src/api", from: "./src/cli", message: "the api client is the bottom layer" },
          ],
        },
      ],
    },
  },
  {
    files: ["src/provider/**/*.ts"],
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            { target: "./src/provider", from: "./src/resources", message: "providers sit below the resources" },
            { target: "./src/provider", from: "./src/cli", message: "providers sit below the CLI" },
          ],
        },
      ],
    },
  },
);
