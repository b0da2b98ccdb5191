import { describe, expect, it } from 'vitest';
import { adviseTgi } from '../../src/engines/tgi/advice.ts';
import { TGI_HEARTBEATS, TGI_PHASES } from '../../src/engines/tgi/log.ts';

const phaseOf = (message: string): string | null =>
  TGI_PHASES.find((rule) => rule.pattern.test(message))?.phase ?? null;

describe('TGI launcher log shapes', () => {
  it('maps launcher lines to phases', () => {
    expect(phaseOf('Args { model_id: "tiiuae/falcon-7b-instruct", sharded: None }')).toBe('process-up');
    expect(phaseOf('Successfully downloaded weights.')).toBe('weight-load');
    expect(phaseOf('Starting shard rank=0')).toBe('weight-load');
    expect(phaseOf('Starting Webserver')).toBe('http-up');
    expect(phaseOf('Warming up model')).toBe('warmup');
  });

  it('knows its shard heartbeat', () => {
    expect(TGI_HEARTBEATS.some((p) => p.test('Waiting for shard to be ready... rank=0'))).toBe(true);
  });

  it("names the master port and the container's shared memory", () => {
    expect(adviseTgi('port-in-use', { port: '29500' }, { phase: null, tp: null }).join(' ')).toContain(
      '--master-port',
    );
    expect(adviseTgi('killed', { signal: 7 }, { phase: null, tp: null }).join(' ')).toContain('--shm-size');
  });
});
