import { defineConfig } from 'vitest/config';

export default defineConfig({
  // One graphql module for every importer (graphql-yoga and Pothos would otherwise load its ESM and CJS builds).
  resolve: { alias: { graphql: 'graphql/index.js' } },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    env: { NODE_ENV: 'test' },
  },
});
