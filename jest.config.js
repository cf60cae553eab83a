/** Tests run the TypeScript sources through ts-jest; tests that need the packaged provider load it from dist/ (built by `npm test`). */
module.exports = {
  preset: "ts-jest",
  testEnvironment: "node",
  roots: ["<rootDir>/tests"],
  testTimeout: 60000,
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.test.json" }] },
  reporters: ["default", "<rootDir>/tests/summaryReporter.js"],
};
