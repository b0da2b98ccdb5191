// `vigil demo`: the story vigil was built from, end to end on the simulator — the mistake, the fix, the start.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acceptLength, freePort, generateOnce, runVigil, writeDraftCheckpoint } from './steps.ts';

export interface DemoOptions {
  /** VIGIL_SIM_TIME_SCALE for the simulated start. */
  timeScale: number;
  /** Output kind for the vigil runs: tty when the demo runs on a terminal. */
  output: 'tty' | 'plain';
  /** Narration, and the vigil runs' own output. */
  say: (text: string) => void;
  forward: (chunk: string) => void;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
}

export interface DemoResult {
  ok: boolean;
  /** What went wrong, when it did. */
  problem?: string;
}

const TARGET = 'demo/big-moe-instruct';

// Runs the three acts; each checks its outcome, so the demo doubles as an end-to-end check.
export const runDemo = async (options: DemoOptions): Promise<DemoResult> => {
  const { say, signal } = options;
  const work = await mkdtemp(join(tmpdir(), 'vigil-demo-'));
  const apiKey = `sk-demo-${randomBytes(6).toString('hex')}`;
  const env: NodeJS.ProcessEnv = {
    ...options.env,
    XDG_STATE_HOME: join(work, 'state'),
    VIGIL_SIM_TIME_SCALE: String(options.timeScale),
  };
  const run = (args: string[]) => runVigil(args, { env, forward: options.forward, signal });
  let launchedId: string | null = null;
  try {
    const draft = await writeDraftCheckpoint(work);
    const port = await freePort();
    const log = join(work, 'server.log');
    const base = ['vigil', 'sim', 'sglang', '--', '--model-path', TARGET, '--tp-size', '8'];
    const serverArgs = ['--host', '127.0.0.1', '--port', String(port), '--api-key', apiKey];
    const spec = ['--speculative-algorithm', 'EAGLE3', '--speculative-draft-model-path', draft];
    const upArgs = ['up', '--output', options.output, '--log', log, '--env', 'NCCL_IB_DISABLE=0'];
    upArgs.push('--env', 'NCCL_SOCKET_IFNAME=lo', '--heartbeat', '5s', '--');

    say('\n== 1/3  The mistake ==\n');
    say(
      "An EAGLE-3 draft for a big MoE target, TP 8, launched with vLLM's spelling --num-speculative-tokens 16:\n\n",
    );
    const mistake = await run([...upArgs, ...base, ...serverArgs, ...spec, '--num-speculative-tokens', '16']);
    if (mistake.code !== 2) {
      return {
        ok: false,
        problem: `the mistaken command should fail preflight (exit 2), vigil exited ${mistake.code}`,
      };
    }
    say(`\n→ rejected in ${Math.round(mistake.ms)} ms, before anything was launched (exit code 2).\n`);

    say('\n== 2/3  The correction ==\n');
    const fix = [
      '--speculative-num-steps',
      '15',
      '--speculative-eagle-topk',
      '1',
      '--speculative-num-draft-tokens',
      '16',
    ];
    say(`SGLang's own flags: ${fix.join(' ')}\n\n`);
    const start = await run([...upArgs, ...base, ...serverArgs, ...spec, ...fix]);
    launchedId = await findLaunch(env, log, signal);
    if (start.code !== 0)
      return {
        ok: false,
        problem: `the corrected start should be ready (exit 0), vigil exited ${start.code}`,
      };
    const readyLine = start.lastLines.findLast((line) => line.startsWith('ready after'));
    if (readyLine === undefined)
      return { ok: false, problem: 'vigil up exited 0 without its "ready after" line' };

    say('\n== 3/3  One generation ==\n');
    const origin = `http://127.0.0.1:${port}`;
    const reply = await generateOnce(origin, apiKey, signal);
    const accept = await acceptLength(origin, apiKey, signal);
    const rate = reply.completionTokens / Math.max(reply.ms / 1000, 0.001);
    say(`"${reply.text.trim()}"\n`);
    say(`${reply.completionTokens} tokens in ${Math.round(reply.ms)} ms (${rate.toFixed(0)} tok/s)`);
    say(accept === null ? '\n' : `, speculative acceptance length ${accept.toFixed(2)}\n`);
    if (reply.completionTokens === 0) return { ok: false, problem: 'the server answered with no tokens' };

    if (launchedId !== null) {
      const stopped = await run(['stop', launchedId]);
      launchedId = stopped.code === 0 ? null : launchedId;
    }
    say(`\n${readyLine}\n`);
    return { ok: true };
  } finally {
    if (launchedId !== null) await run(['stop', launchedId]).catch(() => undefined);
    await rm(work, { recursive: true, force: true });
  }
};

// The id of the launch that writes to `log`, from `vigil status --output json`.
const findLaunch = async (
  env: NodeJS.ProcessEnv,
  log: string,
  signal: AbortSignal,
): Promise<string | null> => {
  let captured = '';
  const forward = (chunk: string): void => {
    captured += chunk;
  };
  const status = await runVigil(['status', '--output', 'json'], { env, forward, signal });
  if (status.code !== 0) return null;
  try {
    const launches = JSON.parse(captured) as { id: string; log: string }[];
    return launches.find((launch) => launch.log === log)?.id ?? null;
  } catch {
    return null;
  }
};
