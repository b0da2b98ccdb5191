// The simulated engines (`vigil sim <engine>`), one per engine folder that has a simulator
// (src/engines/<engine>/sim.ts); src/sim runs them through this list and names no engine.
import { UsageError } from '../errors.ts';
import type { SimEngineModule } from '../sim/engine.ts';
import { sglangSim } from './sglang/sim.ts';
import { vllmSim } from './vllm/sim.ts';
import type { EngineId } from './ids.ts';

export const SIM_ENGINES: readonly SimEngineModule[] = [sglangSim, vllmSim];

/** Whether an engine has a simulator. */
export const isSimEngine = (id: string): id is EngineId => SIM_ENGINES.some((engine) => engine.id === id);

// The simulator of one engine; a UsageError naming the simulated engines for any other.
export const simEngineOf = (id: string): SimEngineModule => {
  const found = SIM_ENGINES.find((engine) => engine.id === id);
  if (found === undefined)
    throw new UsageError(`vigil sim has no simulated ${id}`, {
      hint: `simulated engines: ${SIM_ENGINES.map((engine) => engine.id).join(', ')}`,
    });
  return found;
};
