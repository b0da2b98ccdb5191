// The smoke test after ready, for local and remote launches: run it against the server's URL (through the host's
// port forward for a remote launch), emit its `smoke` event, and say why it failed, if it did.
import type { Diagnosis, VigilEvent } from '../events.ts';
import type { SshTransport } from '../hosts/remote/ssh.ts';
import type { Emittable } from './loop.ts';
import type { LaunchConfig } from './launch-config.ts';

// Runs the smoke test and emits its event; `failure` is set when it failed. `ssh`: the remote host's connection,
// through which the server is reached.
export const smokeStep = async (
  config: LaunchConfig,
  timeoutMs: number,
  emit: (event: Emittable) => VigilEvent,
  ssh?: SshTransport,
): Promise<{ failure?: Diagnosis }> => {
  const { runSmoke, smokeDiagnosis } = await import('../smoke/index.ts');
  const started = performance.now();
  const given = new URL(config.target.origin ?? '');
  let forward: { localUrl(url: URL): URL; close(): Promise<void> } | null = null;
  if (ssh !== undefined) {
    const { openPortForward } = await import('../hosts/remote/port-forward.ts');
    try {
      forward = await openPortForward(ssh, given);
    } catch (error) {
      const summary = `smoke test failed: ${error instanceof Error ? error.message : String(error)}`;
      emit({
        type: 'smoke',
        ok: false,
        ms: Math.round(performance.now() - started),
        ttft_ms: null,
        tokens: null,
      });
      return { failure: { class: 'unknown', summary, evidence: [], advice: [] } };
    }
  }
  let report;
  try {
    report = await runSmoke({
      url: forward === null ? given : forward.localUrl(given),
      engine: config.server.engine,
      timeoutMs,
      ...(config.server.apiKey === null ? {} : { apiKey: config.server.apiKey }),
      ...(config.options.signal === undefined ? {} : { signal: config.options.signal }),
    });
  } finally {
    await forward?.close();
  }
  emit({
    type: 'smoke',
    ok: report.ok,
    ms: Math.round(report.ms),
    ttft_ms: report.ttft_ms,
    tokens: report.tokens,
  });
  return report.ok ? {} : { failure: smokeDiagnosis(report) };
};
