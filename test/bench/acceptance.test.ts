// The acceptance checks: timings measured against a server that delays on purpose, and --compare on two
// simulators whose settings imply the speed-up.
import { afterEach, describe, expect, it } from 'vitest';
import { runVigil } from '../helpers/cli.ts';
import { runMain } from '../helpers/main.ts';
import { startTimedServer } from './timed-server.ts';
import { cleanUpSims, DRAFTER_ARGS, readySim } from './sims.ts';

afterEach(async () => {
  await cleanUpSims();
});

describe('vigil bench: acceptance', () => {
  it('measures a 200 ms first token and 20 ms between tokens', async () => {
    // In this process: the server's timers and the client's reads share one event loop, which on a busy
    // machine saves a second process's wake-up on every token.
    const server = await startTimedServer(200, 20);
    const args = ['bench', server.url, '--requests', '12', '--concurrency', '4', '--max-tokens', '30'];
    const r = await runMain([...args, '--output', 'json']).finally(() => server.close());
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as {
      ttft_ms: { p50: number };
      itl_ms: { p50: number };
      errors: { total: number };
      requests: number;
    };
    expect(report.requests).toBe(12);
    expect(report.errors.total).toBe(0);
    // The 3% target (194-206 ms, 19.4-20.6 ms) is measured by `npm run bench:timing`, which prints the accuracy it
    // reaches. Here, on two busy cores, timers fire late by up to tens of milliseconds, so the bounds only catch a
    // client that measures the wrong thing: TTFT from the wrong moment (never early: the server's delays are lower
    // bounds; TTFT taken at the stream's end would be 780 ms), or gaps between reads rather than between tokens
    // (chunks read together give gaps near 0). Six busy processes per core here once put the median TTFT at 303 ms.
    expect(report.ttft_ms.p50).toBeGreaterThanOrEqual(194);
    expect(report.ttft_ms.p50).toBeLessThanOrEqual(450);
    expect(report.itl_ms.p50).toBeGreaterThanOrEqual(14);
    expect(report.itl_ms.p50).toBeLessThanOrEqual(30);
  });

  it('--compare: a drafter with acceptance length 3 against none gives the speed-up the settings imply', async () => {
    // 40 ms TTFT, 20 tokens/s (a 50 ms step, long beside the few tenths of a ms each request's stream adds after its
    // last token), 16 tokens: with the drafter 6 verify steps (5 of 3 tokens, then 1), without it 16. TPOT,
    // (e2e - TTFT) / (tokens - 1), is then 5 steps / 15 against 15 steps / 15: 3x. The first token also comes from
    // a timer, so its lateness cancels the last one's in e2e - TTFT.
    const env = { VIGIL_SIM_TTFT_MS: '40', VIGIL_SIM_TOKENS_PER_S: '20', VIGIL_SIM_ACCEPT_LEN: '3' };
    const [drafted, plain] = await Promise.all([
      readySim('sglang', DRAFTER_ARGS, env),
      readySim('sglang', [], env),
    ]);
    const r = await runVigil([
      'bench',
      drafted.url,
      '--compare',
      plain.url,
      '--requests',
      '16',
      '--concurrency',
      '4',
      '--block',
      '4',
      '--max-tokens',
      '16',
      '--output',
      'json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as {
      spec: { accept_length: number; per_request_accept_length: number } | null;
      compare: {
        speedup: number;
        ci95: [number, number];
        blocks: number;
        tpot: { speedup: number; ci95: [number, number] };
        baseline: { spec: unknown; errors: { total: number } };
      };
      errors: { total: number };
    };
    // A timer fires late, never early, so each request's last step lands after its due time (a few ms on two
    // busy cores), on each side independently: with lateness 0-10 ms the implied ratio lies in
    // [750 / (250 + 10), (750 + 10) / 250]. A TPOT that took in the first token would give 790 / 290 = 2.72.
    const implied = { lo: 750 / (250 + 10), hi: (750 + 10) / 250 };
    // Output tokens/s compares whole requests: (40 + 15 x 50) ms against (40 + 5 x 50) ms.
    const impliedThroughput = (40 + 15 * 50) / (40 + 5 * 50);
    expect(report.errors.total).toBe(0);
    expect(report.compare.baseline.errors.total).toBe(0);
    expect(report.compare.blocks).toBe(4);
    expect(report.compare.tpot.ci95[0]).toBeLessThanOrEqual(implied.hi);
    expect(report.compare.tpot.ci95[1]).toBeGreaterThanOrEqual(implied.lo);
    // Client and server overheads add a few ms to every request, and more on busy cores, so allow 20% here.
    expect(report.compare.speedup).toBeGreaterThan(impliedThroughput * 0.8);
    expect(report.compare.speedup).toBeLessThan(impliedThroughput * 1.2);
    expect(report.compare.ci95[0]).toBeLessThanOrEqual(report.compare.speedup);
    expect(report.compare.ci95[1]).toBeGreaterThanOrEqual(report.compare.speedup);
    // Each side's acceptance: 16 tokens in 6 steps with the drafter; none reported without.
    expect(report.spec?.accept_length).toBeCloseTo(16 / 6, 2);
    expect(report.spec?.per_request_accept_length).toBeCloseTo(16 / 6, 2);
    expect(report.compare.baseline.spec).toBeNull();
  });
});
