import { describe, expect, it } from 'vitest';
import { formatBar, formatInterval, TqdmWriter } from '../../../src/sim/log/tqdm.ts';

describe('formatBar', () => {
  it("draws the weight loaders' bar as in sglang-ready-02.log", () => {
    expect(
      formatBar('shards', {
        desc: 'Loading safetensors checkpoint shards',
        n: 0,
        total: 2,
        elapsedSeconds: 0,
        rate: null,
      }),
    ).toBe('Loading safetensors checkpoint shards:   0% Completed | 0/2 [00:00<?, ?it/s]\n');
    expect(
      formatBar('shards', {
        desc: 'Loading safetensors checkpoint shards',
        n: 1,
        total: 2,
        elapsedSeconds: 278.9,
        rate: 1 / 278.99,
      }),
    ).toBe('Loading safetensors checkpoint shards:  50% Completed | 1/2 [04:38<04:38, 278.99s/it]\n');
  });

  it("draws tqdm's default bar with eighth blocks, as in sglang-ready-01/02.log", () => {
    expect(formatBar('default', { desc: '', n: 1, total: 4, elapsedSeconds: 1.1, rate: 1 / 1.14 })).toBe(
      ' 25%|██▌       | 1/4 [00:01<00:03,  1.14s/it]',
    );
    expect(
      formatBar('default', {
        desc: 'Capturing batches (bs=1 avail_mem=10.28 GB)',
        n: 23,
        total: 23,
        elapsedSeconds: 16.2,
        rate: 1.42,
      }),
    ).toBe('Capturing batches (bs=1 avail_mem=10.28 GB): 100%|██████████| 23/23 [00:16<00:00,  1.42it/s]');
  });

  it('formats intervals past an hour as H:MM:SS', () => {
    expect(formatInterval(3725)).toBe('1:02:05');
    expect(formatInterval(59.9)).toBe('00:59');
  });
});

describe('TqdmWriter', () => {
  it('starts every redraw with \\r, pads over a longer previous one, and ends with a newline on close', () => {
    const writes: string[] = [];
    const bar = new TqdmWriter((text) => writes.push(text), 'default', 'a long description', 2);
    bar.update(1, 'short');
    bar.close();
    expect(writes.every((text, i) => (i === writes.length - 1 ? text === '\n' : text.startsWith('\r')))).toBe(
      true,
    );
    expect(writes[0]).toMatch(/^\ra long description: {3}0%\| {10}\| 0\/2 \[00:00<\?, \?it\/s\]$/);
    expect(writes[1]?.length).toBe(writes[0]?.length);
    expect(writes[2]).toMatch(/^\rshort: {2}50%\|█████ {5}\| 1\/2 /);
  });
});
