// Test support: simulated servers that are ready to serve, for smoke and bench tests.
import { freePort } from '../helpers/ports.ts';
import { ensureBuilt, startSim, waitFor, type SimProcess } from '../sim/sim-process.ts';

export { cleanUpSims } from '../sim/sim-process.ts';

export const DRAFTER_ARGS = [
  '--speculative-algorithm',
  'EAGLE3',
  '--speculative-draft-model-path',
  'org/drafter',
  '--speculative-num-steps',
  '3',
  '--speculative-eagle-topk',
  '1',
  '--speculative-num-draft-tokens',
  '4',
];

export const VLLM_DRAFTER_ARGS = [
  '--speculative-config',
  '{"method":"eagle3","model":"org/drafter","num_speculative_tokens":3}',
];

// Starts `vigil sim <engine>` on a free port and resolves once /health answers 200.
export const readySim = async (
  engine: 'sglang' | 'vllm',
  args: string[],
  env: Record<string, string> = {},
): Promise<{ sim: SimProcess; url: string }> => {
  ensureBuilt();
  const port = await freePort();
  const portArgs =
    engine === 'sglang'
      ? ['--model-path', 'org/model', '--port', String(port)]
      : ['serve', 'org/model', '--port', String(port)];
  const sim = startSim(engine, [...portArgs, ...args], env);
  const url = `http://127.0.0.1:${String(port)}`;
  await waitFor(`${engine} simulator ready`, async () => {
    try {
      return (await fetch(`${url}/health`)).status === 200;
    } catch {
      return false;
    }
  });
  return { sim, url };
};
