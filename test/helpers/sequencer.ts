// The order test files start in. Vitest's own order puts files it has no timings for (a clean clone) largest first,
// which left the corpus checks, split into small shard files, to start last and run alone at the end. Here the files
// named as the longest start first, in the order given, and the rest follow in vitest's order.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** A sequencer class that starts the files named in `longFirst` (paths, or folders ending in `/`) first, in order. */
export const longFirstSequencer = (longFirst: readonly string[]): typeof BaseSequencer =>
  class LongFirstSequencer extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files);
      const rank = (file: TestSpecification): number => {
        const path = relative(this.ctx.config.root, file.moduleId);
        const at = longFirst.findIndex((entry) =>
          entry.endsWith('/') ? path.startsWith(entry) : path === entry,
        );
        return at === -1 ? longFirst.length : at;
      };
      // Array#sort is stable: the rest keep vitest's order.
      return [...sorted].sort((a, b) => rank(a) - rank(b));
    }
  };
