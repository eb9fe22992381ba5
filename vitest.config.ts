import { defineConfig } from 'vitest/config';

// Four tiers, each runnable alone (`npm run test:unit` and so on; `npm test` runs them all, one tier after another),
// and the container tier, which `npm test` leaves out (`npm run test:container`: the image built and run with Podman):
// - unit: no database and no server, starts in a second or two;
// - api: the app in-process on a clone of the migrated template database (test/support/globalSetup.ts), and
//   domain code that needs PostgreSQL (test/database);
// - process: real server, CLI and MCP processes, crashes and the soak;
// - browser: the dashboard in headless Chromium, one file at a time.
// Only the tiers that need PostgreSQL start it (one server, shared). vitest's default of one worker less than the
// cores is a single worker on a 2-core machine, and most files mostly wait (on PostgreSQL, jobs, child processes):
// the api tier runs 3 files at once (each clones its own database), the process tier 2 (each starts processes).
const database = ['test/support/globalSetup.ts'];
// The tiers that start the local Bluesky server first build its database driver (test/support/addonSetup.ts).
const bluesky = 'test/support/addonSetup.ts';

export default defineConfig({
  // One graphql module for every importer (graphql-yoga and Pothos would otherwise load its ESM and CJS builds).
  resolve: { alias: { graphql: 'graphql/index.js' } },
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    env: { NODE_ENV: 'test' },
    projects: [
      // A tier's sequence.groupOrder runs it after the ones before (vitest requires it where maxWorkers differ).
      { extends: true, test: { name: 'unit', include: ['test/domain/**/*.test.ts'], maxWorkers: 2, sequence: { groupOrder: 0 } } },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['test/http/**/*.test.ts', 'test/database/**/*.test.ts'],
          globalSetup: [bluesky, ...database],
          maxWorkers: 3,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'process',
          include: ['test/process/**/*.test.ts'],
          globalSetup: ['test/support/currentBuild.ts', bluesky, ...database],
          maxWorkers: 2,
          hookTimeout: 180_000,
          sequence: { groupOrder: 2 },
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          globalSetup: database,
          maxWorkers: 1,
          hookTimeout: 180_000,
          sequence: { groupOrder: 3 },
        },
      },
      // Only `npm run test:container` runs it (`npm test` leaves it out): needs Podman, builds the image and runs it.
      {
        extends: true,
        test: {
          name: 'container',
          include: ['test/container/**/*.test.ts'],
          globalSetup: database,
          maxWorkers: 1,
          testTimeout: 120_000,
          hookTimeout: 1_800_000,
          sequence: { groupOrder: 4 },
        },
      },
    ],
  },
});
