import { defineConfig } from 'vitest/config';
import { longFirstSequencer } from './test/helpers/sequencer.ts';

// One pool of four forked workers, each running file after file without re-isolating: most process tests wait on
// their children (a fresh fork per file cost about 0.5 CPU-s), and each worker takes loopback ports from its own
// block (test/helpers/ports.ts). Pure tests share the same workers in the same project: vitest runs two projects one
// after the other, and mixing their files in one order cost about 25 CPU-s more per run here.
// The files that take longest (measured on 2 cores) start first, so that none of them is left running alone at the
// end; process tests and CPU-bound corpus checks alternate in the list.
const LONG_FIRST = [
  'test/watch/launch.test.ts',
  'test/diagnose/corpus/',
  'test/remote/faults.test.ts',
  'test/diagnose/needles.test.ts',
  'test/cli/up.test.ts',
  'test/flags/corpus.test.ts',
  'test/bench/acceptance.test.ts',
  'test/diagnose/signature-index.test.ts',
  'test/remote/up.test.ts',
  'test/diagnose/quiet-lines.test.ts',
  'test/remote/manage.test.ts',
  'test/diagnose/wrappers.test.ts',
  'test/smoke/smoke.test.ts',
  'test/diagnose/file/diagnose-file.test.ts',
  'test/diagnose/cli.test.ts',
  'test/watch/sim.test.ts',
  'test/ckpt/kill.test.ts',
];

export default defineConfig({
  test: {
    globalSetup: ['test/helpers/global-build.ts'],
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    isolate: false,
    maxWorkers: 4,
    sequence: { sequencer: longFirstSequencer(LONG_FIRST) },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
