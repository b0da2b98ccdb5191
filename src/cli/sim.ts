// `vigil sim sglang|vllm -- <engine args>`: the built-in simulated engine (see src/sim). Parses, then hands over.
import { invalidOption } from '../errors.ts';
import type { CommandModule } from './context.ts';

const ENVIRONMENT = `
The engine arguments go after --, e.g.
  vigil sim sglang -- --model-path m --port 30000
  vigil sim vllm -- serve m --host 127.0.0.1 --port 8000

Environment:
  VIGIL_SIM_TIME_SCALE=F     multiply every startup duration by F (1 = realistic minutes, 0.01 = 100x faster)
  VIGIL_SIM_FAIL=C@P         inject failure class C at phase P, e.g. cuda-oom@weight-load, hang@dist-init, flap@ready
  VIGIL_SIM_FLAP=200,503,503 statuses /health cycles through after ready with VIGIL_SIM_FAIL=flap
  VIGIL_SIM_TOKENS_PER_S=N   decode speed of one request without a draft model (default 60)
  VIGIL_SIM_TTFT_MS=N        delay before the first token (default 150)
  VIGIL_SIM_ACCEPT_LEN=X     mean tokens per verify step with a draft model (default 3.2)
  VIGIL_SIM_TRACE=FILE       append one JSON line per event: listening, healthy, ready-line, exit
`;

export const register: CommandModule['register'] = (program, ctx, done) => {
  program
    .command('sim')
    .argument('<engine>', 'sglang or vllm')
    .argument('[args...]', "the engine's own command line, after --")
    .option(
      '--engine-version <version>',
      "print this engine release's line shapes, endpoints and warm-up requests (default: the newest bundled)",
    )
    .allowUnknownOption()
    .addHelpText('after', ENVIRONMENT)
    .action(async (engine: string, args: string[], options: { engineVersion?: string }) => {
      const { isSimEngine, SIM_ENGINES } = await import('../engines/sim.ts');
      if (!isSimEngine(engine)) {
        const names = SIM_ENGINES.map((sim) => sim.id);
        throw invalidOption('engine', names.join(' or '), engine, `e.g. vigil sim ${names[0] ?? ''} -- ...`);
      }
      // The server's modules load only here, so `--help` and a bad engine name stay light.
      const { runSim } = await import('../sim/run.ts');
      const columns = ctx.stdout.isTTY === true ? ctx.stdout.columns : undefined;
      // Through the environment, so the engine's worker processes print the same release.
      const env =
        options.engineVersion === undefined
          ? ctx.env
          : { ...ctx.env, VIGIL_SIM_ENGINE_VERSION: options.engineVersion };
      done(
        await runSim(engine, args, {
          stdout: ctx.stdout,
          stderr: ctx.stderr,
          env,
          ...(columns === undefined ? {} : { columns }),
        }),
      );
    });
};
