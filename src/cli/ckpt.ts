// `vigil ckpt inspect|rename|check-draft`: safetensors checkpoints. Each subcommand first repairs what a
// killed rewrite left behind, then calls the library and prints its report.
import type { Command } from 'commander';
import type { CommandModule } from './context.ts';
import { invalidOption } from '../errors.ts';
import { EXIT } from '../exit-codes.ts';

interface OutputOption {
  output?: string;
}

const outputOf = (raw: OutputOption): 'plain' | 'json' => {
  const output = raw.output ?? 'plain';
  if (output !== 'plain' && output !== 'json') throw invalidOption('--output', 'plain or json', output);
  return output;
};

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

export const register: CommandModule['register'] = (program, ctx, done) => {
  const ckpt: Command = program
    .command('ckpt')
    .description('inspect, re-key and check safetensors checkpoints (EAGLE-3 drafters)');
  const repair = async (path: string): Promise<void> => {
    const { recoverTarget } = await import('../ckpt/rename.ts');
    const { formatRecovered } = await import('../ckpt/format.ts');
    ctx.stderr.write(formatRecovered(await recoverTarget(path)));
  };

  ckpt
    .command('inspect')
    .description(
      'tensors, dtypes, shapes, bytes, metadata, shards, config.json and layout, from the headers only',
    )
    .argument('<path>', 'a .safetensors file or a checkpoint folder')
    .option('--output <kind>', 'plain or json', 'plain')
    .action(async (path: string, raw: OutputOption) => {
      const output = outputOf(raw);
      await repair(path);
      const { inspectCheckpoint } = await import('../ckpt/inspect.ts');
      const { formatInspect } = await import('../ckpt/format.ts');
      const report = await inspectCheckpoint(path);
      ctx.stdout.write(output === 'json' ? json(report) : formatInspect(report));
      done(EXIT.ready);
    });

  ckpt
    .command('rename')
    .description(
      'rename tensors. In place when the new header fits in the old one (one same-length write after saving a header copy: safe if vigil is killed, NOT safe against power loss); otherwise by copy to a temp file, fsync, byte-for-byte check, rename over the original',
    )
    .argument('<path>', 'a .safetensors file or a checkpoint folder (with its index and config.json)')
    .option(
      '--preset <name>',
      'eagle3-speculators-to-sglang or eagle3-sglang-to-speculators (also rewrites config.json)',
    )
    .option(
      '--map <rule>',
      'REGEX=>REPLACEMENT (JavaScript RegExp, $1 in the replacement; repeatable, first match wins)',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option('--dry-run', 'print the mapping table and change nothing')
    .option('--no-backup', 'do not keep the original file (copy path) or config.json')
    .option('--verify-data', 'also hash the tensor data before and after an in-place rewrite')
    .option('--copy', 'rewrite by copy even when the header fits in place')
    .option('--output <kind>', 'plain or json', 'plain')
    .action(
      async (
        path: string,
        raw: OutputOption & {
          preset?: string;
          map: string[];
          dryRun?: boolean;
          backup: boolean;
          verifyData?: boolean;
          copy?: boolean;
        },
      ) => {
        const output = outputOf(raw);
        const { parseRule } = await import('../ckpt/name-map.ts');
        const { isPresetName, PRESET_NAMES } = await import('../ckpt/presets.ts');
        if (raw.preset !== undefined && !isPresetName(raw.preset))
          throw invalidOption('--preset', PRESET_NAMES.join(' or '), raw.preset);
        const rules = raw.map.map(parseRule);
        const { renameCheckpoint } = await import('../ckpt/rename.ts');
        const format = await import('../ckpt/format.ts');
        const { recovered, plan, result } = await renameCheckpoint(path, {
          rules,
          ...(raw.preset !== undefined && isPresetName(raw.preset) ? { preset: raw.preset } : {}),
          ...(raw.dryRun === true ? { dryRun: true } : {}),
          backup: raw.backup,
          ...(raw.verifyData === true ? { verifyData: true } : {}),
          ...(raw.copy === true ? { forceCopy: true } : {}),
        });
        ctx.stderr.write(format.formatRecovered(recovered));
        if (output === 'json') {
          ctx.stdout.write(
            json({
              dry_run: raw.dryRun === true,
              changes: plan.changes,
              files: result?.files ?? plan.files.map((f) => ({ path: f.path, mode: f.mode })),
              index_updated: plan.index !== null,
              config_updated: plan.config !== null,
              notes: plan.notes,
              backups: result?.backups ?? [],
            }),
          );
        } else {
          ctx.stdout.write(format.formatRenamePlan(plan, raw.dryRun === true || result === null));
          if (result !== null) ctx.stdout.write(format.formatRenameResult(result));
        }
        done(EXIT.ready);
      },
    );

  ckpt
    .command('check-draft')
    .description(
      "check an EAGLE-3 drafter's tensor names and config.json against what an engine release's loader reads",
    )
    .argument('<dir>', 'the drafter folder (--speculative-draft-model-path)')
    .requiredOption('--engine <engine>', 'sglang or vllm')
    .option('--engine-version <version>', 'the engine release (default: the newest release vigil knows)')
    .option('--output <kind>', 'plain or json', 'plain')
    .action(async (dir: string, raw: OutputOption & { engine: string; engineVersion?: string }) => {
      const output = outputOf(raw);
      const { DRAFT_ENGINES, draftLoaderFor } = await import('../engines/index.ts');
      const engine = DRAFT_ENGINES.find((spec) => spec.id === raw.engine)?.id;
      if (engine === undefined)
        throw invalidOption('--engine', DRAFT_ENGINES.map((spec) => spec.id).join(' or '), raw.engine);
      if (raw.engineVersion !== undefined && !/^\d+(\.\d+)*([.+-]?\w+)*$/.test(raw.engineVersion)) {
        throw invalidOption('--engine-version', 'a release number such as 0.5.11', raw.engineVersion);
      }
      await repair(dir);
      const { NEWEST_BUNDLED } = await import('../flags/schema/bundled.ts');
      const { checkDraft } = await import('../ckpt/check-draft.ts');
      const { formatDraftCheck } = await import('../ckpt/format.ts');
      const version = raw.engineVersion ?? NEWEST_BUNDLED[engine];
      const check = await checkDraft(
        dir,
        draftLoaderFor(engine, version),
        raw.engineVersion === undefined ? 'newest-bundled' : 'given',
      );
      ctx.stdout.write(output === 'json' ? json(check) : formatDraftCheck(check));
      done(check.status === 'errors' ? EXIT.preflight : EXIT.ready);
    });
};
