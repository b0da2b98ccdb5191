import { describe, expect, it } from 'vitest';
import { ServingStats, type DecodeReport } from '../../../src/sim/api/stats.ts';

describe('ServingStats', () => {
  it('reports every decode-log interval with accept len and SGLang-style accept rate', () => {
    const reports: DecodeReport[] = [];
    const stats = new ServingStats({
      decodeLogInterval: 4,
      draftTokens: 8,
      onDecodeReport: (report) => reports.push(report),
    });
    stats.startRequest(10);
    for (const tokens of [3, 4, 3, 4, 3, 4, 3]) stats.recordStep(tokens);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ running: 1, tokens: 14, acceptLength: 3.5 });
    expect(reports[0]?.acceptRate).toBeCloseTo((14 - 4) / (4 * 7), 6);
    expect(stats.avgAcceptLength).toBeCloseTo(24 / 7, 6);
    stats.finishRequest();
    expect(stats).toMatchObject({ requests: 1, running: 0, promptTokens: 10, generationTokens: 24 });
  });

  it('has no acceptance figures without a draft model', () => {
    const reports: DecodeReport[] = [];
    const stats = new ServingStats({
      decodeLogInterval: 2,
      draftTokens: null,
      onDecodeReport: (report) => reports.push(report),
    });
    stats.recordStep(1);
    stats.recordStep(1);
    expect(reports[0]).toMatchObject({ acceptLength: null, acceptRate: null, tokens: 2 });
    expect(stats.avgAcceptLength).toBeNull();
  });
});
