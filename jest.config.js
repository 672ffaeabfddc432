// Three tiers (see README): unit (no servers), integration and e2e (against the real stack that
// `npm test` starts: NATS, FerretDB, MinIO, Keycloak, the services and the gateway).
const swc = [
  '@swc/jest',
  {
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', decorators: true, tsx: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, react: { runtime: 'automatic' } },
    },
    module: { type: 'commonjs' },
  },
];
const shared = {
  transform: { '^.+\\.(t|j)sx?$': swc },
  transformIgnorePatterns: ['/node_modules/(?!(openid-client|oauth4webapi|jose)/)'],
  moduleNameMapper: {
    '^@stemdeck/proto$': '<rootDir>/proto/src',
    '^@stemdeck/proto/(vocabulary|live)$': '<rootDir>/proto/src/$1',
    '^@stemdeck/platform$': '<rootDir>/libs/platform/src',
    '^@stemdeck/platform/tracing$': '<rootDir>/libs/platform/src/tracing',
    '^@stemdeck/audio$': '<rootDir>/libs/audio/src',
    '^@stemdeck/test-client$': '<rootDir>/tools/test-client/src',
  },
  testEnvironment: 'node',
};

module.exports = {
  // Jest reads the test timeout from the global config only (a project's own `testTimeout` is ignored), so it
  // is set here for every tier, and the e2e project raises it in its setup file. `npm test` runs the unit tests
  // beside the stack and its integration tests on the same cores: the DSP specs (separation, analysis) that take
  // 1–2 s alone can take several times that there.
  testTimeout: 30_000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      setupFilesAfterEnv: ['<rootDir>/test/support/dom-async-timeout.ts'],
      testMatch: ['<rootDir>/{proto,libs,services,tools,bench}/**/src/**/*.spec.ts', '<rootDir>/frontend/src/**/*.spec.{ts,tsx}', '<rootDir>/test/deploy/**/*.spec.ts'],
    },
    { ...shared, displayName: 'integration', testMatch: ['<rootDir>/test/integration/**/*.int-spec.ts', '<rootDir>/test/deploy/**/*.int-spec.ts'] },
    { ...shared, displayName: 'e2e', setupFilesAfterEnv: ['<rootDir>/test/support/e2e-timeout.ts'], testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'] },
  ],
};
