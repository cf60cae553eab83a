// Lint guards the project's structure (ARCHITECTURE.md): the emulator independent of src/, layers
// reached only from above. Import cycles, type-only ones included, are caught by dpdm in `npm run lint`.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/**
 * The API-path boundary: a kind's path files are imported only inside its `paths/` folder (the kind's
 * ports and listings, `<kind>/paths/index.ts`), so nothing above a port, the CLI included, asks which path is in use.
 */
const PATH_FILES = {
  group: ["**/paths/graphql*", "**/paths/v2*"],
  message: "a path's mapping is reached only through its kind's ports (<kind>/paths/index.ts): ask the port, never the path",
};
const PATHS = "src/provider/**/paths/**";

/** `no-restricted-imports` for `files`: nothing from the folders in `banned`, with `why`; `more`: further patterns. */
const layer = (files, banned, why, more = [], ignores = []) => ({
  files,
  ignores,
  rules: {
    "@typescript-eslint/no-restricted-imports": [
      "error",
      { patterns: [...(banned.length ? [{ group: banned.flatMap((b) => [`**/${b}`, `**/${b}/**`]), message: why }] : []), ...more] },
    ],
  },
});

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "node_modules/**",
      ".pulumi/**",
      "coverage/**",
      "examples/*/node_modules/**",
      "bench/programs/**",
      // Generated from docs/spec/rest-v2-openapi.json by `npm run generate:api`; kept byte-identical to the generator's output.
      "src/api/generated/**",
      "tests/**/fixture*/**",
      "**/*.js",
      "**/*.mjs",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // Record types are interfaces over derived types, so that signatures show their names.
      "@typescript-eslint/no-empty-object-type": ["error", { allowInterfaces: "with-single-extends" }],
      // Errors are rewritten with redacted messages; a `cause` would carry the unredacted original along.
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
  layer(["emulator/**/*.ts"], ["src"], "the emulator is an independent implementation of the spec: it imports nothing from src/"),
  layer(
    ["src/api/**/*.ts"],
    ["provider", "resources", "cli"],
    "the api client is the bottom layer: it imports nothing from the provider, the resources or the CLI",
  ),
  layer([PATHS], ["resources", "cli"], "providers sit below the resources and the CLI"),
  layer(["src/provider/**/*.ts"], ["resources", "cli"], "providers sit below the resources and the CLI", [PATH_FILES], [PATHS]),
  layer(["src/*.ts", "src/cli/**/*.ts", "src/resources/**/*.ts", "src/plugin/**/*.ts", "bench/**/*.ts", "scripts/**/*.ts"], [], "", [PATH_FILES]),
);
