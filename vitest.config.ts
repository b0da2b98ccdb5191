import { defineConfig } from 'vitest/config';

// Tests that start processes or servers (vigil itself, the simulator, fixture servers, loopback HTTP): forked
// workers, four at a time, each running file after file without re-isolating (they mostly wait on their children,
// and a fresh fork per file cost about 0.5 CPU-s), each worker taking loopback ports from its own block
// (test/helpers/ports.ts). Everything else is pure: threads without isolation. Both share one pool of four.
const PROCESS_HEAVY = [
  'test/cli/**/*.test.ts',
  'test/hosts/**/*.test.ts',
  'test/probe/http.test.ts',
  'test/probe/prober.test.ts',
  'test/sim/api/**/*.test.ts',
  'test/sim/failures/**/*.test.ts',
  'test/sim/run.test.ts',
  'test/sim/lifecycle.test.ts',
  'test/watch/launch.test.ts',
  'test/watch/sim.test.ts',
  'test/watch/watch.test.ts',
  'test/flags/check-cli.test.ts',
  'test/diagnose/cli.test.ts',
  'test/logs/follow.test.ts',
  'test/remote/**/*.test.ts',
  'test/ckpt/cli.test.ts',
  'test/ckpt/kill.test.ts',
  'test/ckpt/rename.test.ts',
  'test/faults/**/*.test.ts',
  'test/bench/**/*.test.ts',
  'test/smoke/**/*.test.ts',
  'test/docs/**/*.test.ts',
];

export default defineConfig({
  test: {
    globalSetup: ['test/helpers/global-build.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: PROCESS_HEAVY,
          pool: 'threads',
          isolate: false,
          maxWorkers: 4,
        },
      },
      {
        extends: true,
        test: { name: 'processes', include: PROCESS_HEAVY, isolate: false, maxWorkers: 4 },
      },
    ],
  },
});
