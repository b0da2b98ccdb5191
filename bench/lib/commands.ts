// The server commands and the watcher commands the detection benchmark runs against them.
import { execPath } from 'node:process';

export type WatcherId = 'vigil' | 'classic' | 'wait-on';
export type ServerKind = 'sim' | 'plain';
/** `crash-stubborn`: the leader crashes while a child in its group ignores SIGTERM (a rank stuck in NCCL). */
export type Scenario = 'ready' | 'crash' | 'crash-stubborn';

export const WATCHERS: readonly WatcherId[] = ['vigil', 'classic', 'wait-on'];

/** `--grace` in the stubborn-rank trials: vigil exits only after it, so the first event is what is timed. */
export const STUBBORN_GRACE_S = 5;

export interface ServerSpec {
  argv: string[];
  env: Record<string, string>;
  healthUrl: string;
  /** What `vigil up` needs besides the command to find the health URL. */
  vigilArgs: string[];
}

export interface ServerPlan {
  kind: ServerKind;
  scenario: Scenario;
  port: number;
  trace: string;
  /** 0..1, varied per trial (the same sequence for every watcher): when the plain server turns ready or
   * exits, and how fast the simulator runs. */
  jitter: number;
}

// The simulator's time scale for a trial: about 0.01, varied ±20% so pollers meet it at different phases.
export const simScale = (jitter: number): number => 0.01 * (0.8 + 0.4 * jitter);

// The command line of one trial's server.
export const serverSpec = (plan: ServerPlan): ServerSpec => {
  const healthUrl = `http://127.0.0.1:${plan.port}/health`;
  if (plan.kind === 'plain') {
    // One probe interval (1 s) of spread: with stratified jitters every phase of the schedule is met once. Ready
    // counts from the first probe the server answers, so a fixed-rate poller's wait is set by the jitter alone.
    const when = String(Math.round(1000 + 1000 * plan.jitter));
    const timing =
      plan.scenario === 'ready'
        ? ['--ready-after-first-probe', when]
        : ['--exit-after', when, '--exit-code', '3'];
    if (plan.scenario === 'crash-stubborn') timing.push('--stubborn-child');
    return {
      argv: [
        execPath,
        '--import',
        'tsx',
        'bench/lib/health-server.ts',
        '--port',
        String(plan.port),
        '--trace',
        plan.trace,
        ...timing,
      ],
      env: {},
      healthUrl,
      // The stubborn child holds the stop for the whole grace period; the verdict must not wait for it.
      vigilArgs: [
        '--engine',
        'generic',
        '--port',
        String(plan.port),
        ...(plan.scenario === 'crash-stubborn' ? ['--grace', `${STUBBORN_GRACE_S}s`] : []),
      ],
    };
  }
  const env: Record<string, string> = {
    VIGIL_SIM_TIME_SCALE: simScale(plan.jitter).toFixed(4),
    VIGIL_SIM_TRACE: plan.trace,
  };
  if (plan.scenario === 'crash') env['VIGIL_SIM_FAIL'] = 'cuda-oom@graph-capture';
  return {
    argv: [
      execPath,
      'bin/vigil.js',
      'sim',
      'sglang',
      '--',
      '--model-path',
      'm',
      '--host',
      '127.0.0.1',
      '--port',
      String(plan.port),
    ],
    env,
    healthUrl,
    vigilArgs: [],
  };
};

// The loop from the README: curl /health every 10 s, stop at 200, print progress every 60 s, 90 tries.
export const CLASSIC_LOOP = `
for i in $(seq 1 90); do
  code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$URL")
  if [ "$code" = "200" ]; then echo "ready after $(( (i - 1) * 10 ))s"; exit 0; fi
  if [ $(( i % 6 )) -eq 0 ]; then echo "$(( i * 10 ))s: $(tail -n 1 "$LOG" 2>/dev/null)"; fi
  sleep 10
done
echo "gave up after 90 tries"
exit 1
`;

// The watcher's argv; vigil launches the server itself, the others watch one the harness started.
export const watcherArgv = (watcher: WatcherId, server: ServerSpec): string[] => {
  switch (watcher) {
    case 'vigil':
      return [execPath, 'bin/vigil.js', 'up', '--output', 'jsonl', ...server.vigilArgs, '--', ...server.argv];
    case 'classic':
      return ['bash', '-c', CLASSIC_LOOP];
    case 'wait-on':
      return ['node_modules/.bin/wait-on', server.healthUrl.replace(/^http:/, 'http-get:')];
  }
};
