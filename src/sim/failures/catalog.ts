// Which failure each engine can hit at which phase, and the check of VIGIL_SIM_FAIL=<class>@<phase-id>
// against it (and against the phases this command really goes through).
import { SIM_ENGINES, simEngineOf } from '../../engines/sim.ts';
import { invalidOption } from '../../errors.ts';
import { PHASE_IDS, type PhaseId } from '../../events.ts';
import type { SimConfig } from '../config.ts';
import type { SimEngine } from '../types.ts';

export const SIM_FAILURE_CLASSES = [
  'cuda-oom',
  'nccl',
  'hang',
  'port-in-use',
  'model-not-found-or-auth',
  'weight-mismatch',
  'dependency',
  'invalid-value',
  'killed',
  'warmup-failed',
  'graph-capture-failed',
  'peer-rank-failed',
  'flap',
] as const;
export type SimFailureClass = (typeof SIM_FAILURE_CLASSES)[number];

/** A failure to inject: its class, the phase the user named, and the phase of this run where it strikes. */
export interface SimFailure {
  class: SimFailureClass;
  phase: PhaseId;
  /** Usually `phase`; a draft's weights may load in a later phase (the engine's `draftWeightsPhase`). */
  trigger: PhaseId;
}

type Where = Partial<Record<SimFailureClass, readonly PhaseId[]>>;

// The phases where each engine really meets each class (from each engine's simulator, src/engines/<engine>/sim.ts).
export const FAILURE_PHASES: Readonly<Record<string, Where>> = Object.fromEntries(
  SIM_ENGINES.map((engine) => [engine.id, engine.failurePhases]),
);

const EXAMPLE = 'e.g. VIGIL_SIM_FAIL=cuda-oom@weight-load';
const isClass = (text: string): text is SimFailureClass =>
  (SIM_FAILURE_CLASSES as readonly string[]).includes(text);
const isPhase = (text: string): text is PhaseId => (PHASE_IDS as readonly string[]).includes(text);
const engineName = (engine: SimEngine): string => simEngineOf(engine).label;

// Why a phase is missing from this command's start, so the error says what to add or drop.
const missingPhaseReason = (phase: PhaseId, engine: SimEngine): string => {
  if (phase === 'draft-graph-capture') return 'it needs --speculative-algorithm';
  if (phase === 'graph-capture') return `drop ${simEngineOf(engine).noGraphOption}`;
  if (phase === 'compile') return 'drop --enforce-eager';
  if (phase === 'warmup') return 'drop --skip-server-warmup';
  return 'this command skips it';
};

// Parses and checks VIGIL_SIM_FAIL for this engine and command; `plan` is the phases this start goes through.
export const resolveSimFailure = (
  text: string,
  engine: SimEngine,
  config: SimConfig,
  plan: readonly PhaseId[],
): SimFailure => {
  const [name = '', phaseText, ...rest] = text.split('@');
  const allowed = simEngineOf(engine).failurePhases;
  if (!isClass(name) || rest.length > 0) {
    throw invalidOption(
      'VIGIL_SIM_FAIL',
      `<class>@<phase-id>, class one of ${SIM_FAILURE_CLASSES.join(', ')}`,
      text,
      EXAMPLE,
    );
  }
  const phases = allowed[name];
  if (phases === undefined) {
    const classes = Object.keys(allowed).join(', ');
    throw invalidOption(
      'VIGIL_SIM_FAIL',
      `a failure class the simulated ${engineName(engine)} has (${classes})`,
      text,
    );
  }
  const phase = phaseText === undefined || phaseText === '' ? phases[0] : phaseText;
  if (phase === undefined || !isPhase(phase)) {
    throw invalidOption('VIGIL_SIM_FAIL', `a phase id after @ (${PHASE_IDS.join(', ')})`, text, EXAMPLE);
  }
  if (!phases.includes(phase)) {
    throw invalidOption(
      'VIGIL_SIM_FAIL',
      `${name} at one of ${phases.join(', ')} on ${engineName(engine)}`,
      text,
    );
  }
  if (name === 'weight-mismatch' && config.speculative === null) {
    const flags = simEngineOf(engine).draftOptions;
    throw invalidOption(
      'VIGIL_SIM_FAIL',
      `a draft model for weight-mismatch (it fails loading the draft): add ${flags}`,
      text,
    );
  }
  if (name === 'peer-rank-failed' && config.tpSize < 2) {
    throw invalidOption(
      'VIGIL_SIM_FAIL',
      'peer-rank-failed with --tp-size 2 or more (it needs a peer rank)',
      text,
    );
  }
  // An engine may load the draft's weights in a later phase than the target's (after the target's graphs).
  const draftPhase = simEngineOf(engine).draftWeightsPhase;
  const trigger = name === 'weight-mismatch' && draftPhase !== null ? draftPhase : phase;
  if (!plan.includes(trigger)) {
    throw invalidOption(
      'VIGIL_SIM_FAIL',
      `a phase this command goes through (${plan.join(', ')})`,
      text,
      `${trigger}: ${missingPhaseReason(trigger, engine)}`,
    );
  }
  return { class: name, phase, trigger };
};
