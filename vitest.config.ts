import { defineConfig } from 'vitest/config';

// Process-heavy test files run one at a time: CI has 2 busy cores.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
