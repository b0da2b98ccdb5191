// The order test files start in, for the one pool of four workers both projects share. Vitest's own order runs one
// project after the other (processes, then unit): the CPU-bound corpus checks then start once the process tests are
// done and finish last, while the process tests, which mostly wait on their children, leave a core idle. Here the
// longest files of both projects start first, and the rest alternate between the projects.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** A sequencer class that starts the files named in `longFirst` (paths, or folders ending in `/`) first, in order. */
export const interleavedSequencer = (longFirst: readonly string[]): typeof BaseSequencer =>
  class InterleavedSequencer extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files);
      const rank = (file: TestSpecification): number => {
        const path = relative(this.ctx.config.root, file.moduleId);
        const at = longFirst.findIndex((entry) =>
          entry.endsWith('/') ? path.startsWith(entry) : path === entry,
        );
        return at === -1 ? longFirst.length : at;
      };
      const first = sorted.filter((file) => rank(file) < longFirst.length).sort((a, b) => rank(a) - rank(b));
      const queues = new Map<string, TestSpecification[]>();
      for (const file of sorted.filter((spec) => rank(spec) === longFirst.length)) {
        const queue = queues.get(file.project.name) ?? [];
        queue.push(file);
        queues.set(file.project.name, queue);
      }
      const rest: TestSpecification[] = [];
      while ([...queues.values()].some((queue) => queue.length > 0))
        for (const queue of queues.values()) {
          const next = queue.shift();
          if (next !== undefined) rest.push(next);
        }
      return [...first, ...rest];
    }
  };
