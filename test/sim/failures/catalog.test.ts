import { describe, expect, it } from 'vitest';
import { parseArgv } from '../../../src/flags/argparse/parse.ts';
import { loadBundledSchema } from '../../../src/flags/schema/bundled.ts';
import { buildSimConfig, type SimConfig } from '../../../src/sim/config.ts';
import {
  FAILURE_PHASES as PHASES_BY_ENGINE,
  resolveSimFailure,
  SIM_FAILURE_CLASSES,
} from '../../../src/sim/failures/catalog.ts';
import { sglangPhases } from '../../../src/engines/sglang/sim/phases.ts';
import { vllmPhases } from '../../../src/engines/vllm/sim/phases.ts';

const configOf = (engine: 'sglang' | 'vllm', argv: string[]): SimConfig => {
  const built = buildSimConfig(engine, parseArgv(loadBundledSchema(engine), argv));
  if (!built.ok) throw new Error(built.message);
  return built.config;
};

const planOf = (config: SimConfig) =>
  (config.engine === 'sglang' ? sglangPhases({ config }) : vllmPhases({ config })).map((phase) => phase.id);

const sglang = configOf('sglang', [
  '--model-path',
  'm',
  '--tp-size',
  '2',
  '--speculative-algorithm',
  'EAGLE3',
]);
const vllm = configOf('vllm', ['m', '-tp', '2', '--speculative-config', '{"method":"eagle3","model":"d"}']);

// The error's message and hint together, as `vigil` prints them.
const failureText = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    return `${(error as Error).message}\n${(error as { hint?: string }).hint ?? ''}`;
  }
  return 'no error';
};

// The registry lists each simulated engine once; both are there.
const FAILURE_PHASES = { sglang: PHASES_BY_ENGINE['sglang'] ?? {}, vllm: PHASES_BY_ENGINE['vllm'] ?? {} };

describe('resolveSimFailure', () => {
  it('accepts every class at every phase listed for it, on both engines', () => {
    for (const config of [sglang, vllm]) {
      for (const [name, phases] of Object.entries(PHASES_BY_ENGINE[config.engine] ?? {})) {
        for (const phase of phases) {
          expect(resolveSimFailure(`${name}@${phase}`, config.engine, config, planOf(config))).toMatchObject({
            class: name,
            phase,
          });
        }
      }
    }
  });

  it('offers every class on SGLang, and the classes with known vLLM line shapes on vLLM', () => {
    expect(Object.keys(FAILURE_PHASES.sglang).sort()).toEqual([...SIM_FAILURE_CLASSES].sort());
    expect(Object.keys(FAILURE_PHASES.vllm)).not.toContain('warmup-failed');
  });

  it("strikes SGLang's draft weight mismatch in the draft phase, and defaults a missing phase to the first one", () => {
    expect(resolveSimFailure('weight-mismatch@weight-load', 'sglang', sglang, planOf(sglang))).toEqual({
      class: 'weight-mismatch',
      phase: 'weight-load',
      trigger: 'draft-graph-capture',
    });
    expect(resolveSimFailure('weight-mismatch', 'vllm', vllm, planOf(vllm)).trigger).toBe('weight-load');
    expect(resolveSimFailure('flap', 'sglang', sglang, planOf(sglang)).phase).toBe('ready');
  });

  it.each([
    ['meltdown', /class one of cuda-oom, nccl, hang, port-in-use/],
    ['hang@teatime', /a phase id after @ \(process-up, dist-init, weight-load/],
    ['nccl@weight-load', /nccl at one of dist-init on SGLang/],
    ['hang@compile', /hang at one of process-up, .*, warmup on SGLang, got "hang@compile"/],
    ['cuda-oom@weight-load@x', /class one of/],
  ])('rejects %s for SGLang, naming what is allowed', (text, message) => {
    expect(failureText(() => resolveSimFailure(text, 'sglang', sglang, planOf(sglang)))).toMatch(message);
  });

  it('explains what a command lacks for a class or phase', () => {
    const plain = configOf('sglang', ['--model-path', 'm', '--disable-cuda-graph']);
    expect(
      failureText(() => resolveSimFailure('weight-mismatch@weight-load', 'sglang', plain, planOf(plain))),
    ).toMatch(/a draft model for weight-mismatch .*--speculative-draft-model-path/);
    expect(
      failureText(() => resolveSimFailure('peer-rank-failed@weight-load', 'sglang', plain, planOf(plain))),
    ).toMatch(/--tp-size 2 or more/);
    expect(
      failureText(() => resolveSimFailure('hang@graph-capture', 'sglang', plain, planOf(plain))),
    ).toMatch(/graph-capture: drop --disable-cuda-graph/);
    const eager = configOf('vllm', ['m', '--enforce-eager']);
    expect(failureText(() => resolveSimFailure('killed@compile', 'vllm', eager, planOf(eager)))).toMatch(
      /compile: drop --enforce-eager/,
    );
    expect(
      failureText(() => resolveSimFailure('graph-capture-failed@graph-capture', 'vllm', vllm, planOf(vllm))),
    ).toMatch(/a failure class the simulated vLLM has/);
  });
});
