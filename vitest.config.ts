import { defineConfig } from 'vitest/config';

export default defineConfig({
  // graphql ships ESM and CJS builds; Pothos and yoga must see the same one, or schemas built by one
  // are rejected by the other ("Cannot use GraphQLObjectType from another module or realm").
  resolve: { alias: { graphql: 'graphql/index.js' } },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Each file starts its own server and database; two cores run two files at a time.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
