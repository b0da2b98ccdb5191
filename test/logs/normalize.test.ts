import { describe, expect, it } from 'vitest';
import { collapseRedraws, normalizeLine, stripAnsi } from '../../src/logs/normalize.ts';
import { splitProgressBar } from '../../src/logs/progress-bar.ts';

describe('ANSI and carriage returns', () => {
  it('removes colour codes a log shipper wrote out as text (#033[, ^[[, \\x1b[)', () => {
    expect(stripAnsi('#033[2m2024-04-18T22:45:31.006845Z#033[0m #033[32m INFO#033[0m ready')).toBe(
      '2024-04-18T22:45:31.006845Z  INFO ready',
    );
    expect(stripAnsi('^[[0;36m(APIServer pid=31)^[[0;0m INFO 02-03 19:00:05 [api_server.py:946] up')).toBe(
      '(APIServer pid=31) INFO 02-03 19:00:05 [api_server.py:946] up',
    );
    expect(stripAnsi('\\x1b[32mINFO\\x1b[0m x')).toBe('INFO x');
    expect(
      normalizeLine('#033[2m2024-04-18T22:45:31.006845Z#033[0m #033[31m ERROR#033[0m boom').pieces[0],
    ).toMatchObject({ text: 'boom', level: 'error' });
    // A `#033` that is not followed by `[` is ordinary text.
    expect(stripAnsi('issue #033 fixed')).toBe('issue #033 fixed');
    // A colour code whose ESC a paste dropped, at a line's start; elsewhere bracketed text stays.
    expect(stripAnsi('[0;36m(APIServer pid=1) INFO up')).toBe('(APIServer pid=1) INFO up');
    expect(stripAnsi('shape [1m] of x [0;36m')).toBe('shape [1m] of x [0;36m');
    // … and the one that ends a process tag's colour right after it.
    expect(stripAnsi('[36m(run pid=28)[0m ValueError: x')).toBe('(run pid=28) ValueError: x');
    expect(stripAnsi('[36m(run pid=28) [0m is text')).toBe('(run pid=28) [0m is text');
  });

  it('reads the prefixes of a log pasted with an indent, and leaves indented traceback lines alone', () => {
    const line =
      '    2024-11-03T22:19:14.922964Z  INFO text_generation_router::server: router/src/server.rs:2354: Connected';
    expect(normalizeLine(line).pieces).toEqual([{ text: 'Connected', rank: null, level: 'info', bar: null }]);
    expect(normalizeLine('  File "/x/y.py", line 3, in <module>').text).toBe(
      '  File "/x/y.py", line 3, in <module>',
    );
  });

  it("removes xoscar's relay tag (Xinference) after an exception's class or before a relayed message", () => {
    expect(
      normalizeLine("KeyError: [address=0.0.0.0:35521, pid=15640] 'layers.10.mlp.gate.g_idx'").text,
    ).toBe("KeyError: 'layers.10.mlp.gate.g_idx'");
    expect(
      normalizeLine(
        "2025-06-06 17:54:18,316 xinference.api.restful_api 15545 ERROR    [address=0.0.0.0:35521, pid=15640] 'x.y'",
      ).text,
    ).toBe("'x.y'");
    expect(normalizeLine('[address=0.0.0.0:1, pid=2] boom').text).toBe('boom');
  });

  it('removes colour codes', () => {
    expect(stripAnsi('\u001b[32mINFO\u001b[0m 11-24 11:44:17 [core.py:1] ok')).toBe(
      'INFO 11-24 11:44:17 [core.py:1] ok',
    );
    expect(
      normalizeLine('\u001b[1;31mERROR\u001b[0m:    [Errno 98] address already in use').pieces[0],
    ).toMatchObject({
      text: '[Errno 98] address already in use',
      level: 'error',
    });
  });

  it('keeps the last state of a \\r-redrawn line', () => {
    expect(collapseRedraws('a  10%\rb  50%\rc 100%')).toBe('c 100%');
    expect(collapseRedraws('done\r')).toBe('done');
    expect(collapseRedraws('\r\r')).toBe('');
    expect(collapseRedraws('no redraw')).toBe('no redraw');
  });
});

describe('progress bars', () => {
  it.each([
    [
      'Loading safetensors checkpoint shards:  50% Completed | 1/2 [04:38<04:38, 278.99s/it]',
      'Loading safetensors checkpoint shards',
      1,
      2,
    ],
    [
      'Capturing batches (bs=1 avail_mem=10.28 GB): 100%|██████████| 23/23 [00:16<00:00,  1.42it/s]',
      'Capturing batches (bs=1 avail_mem=10.28 GB)',
      23,
      23,
    ],
    [
      'Capturing CUDA graphs (decode, FULL): 100%|██████████| 35/35 [00:01<00:00, 33.86it/s]',
      'Capturing CUDA graphs (decode, FULL)',
      35,
      35,
    ],
    [' 25%|██▌       | 1/4 [00:01<00:03,  1.14s/it]', '', 1, 4],
  ] as const)('%s', (text, label, done, total) => {
    expect(splitProgressBar(text)?.bar).toEqual({ label, done, total });
  });

  it('reads a bar drawn over another bar as unlabelled', () => {
    expect(splitProgressBar('100%|████100%|█████| 1/1 [07:18<00:00, 438.68s/it]')?.bar).toEqual({
      label: '',
      done: 1,
      total: 1,
    });
  });

  it('is not fooled by percentages in sentences', () => {
    expect(splitProgressBar('token usage: 0.00, cache hit rate: 0.00%, #running-req: 0')).toBeNull();
    expect(splitProgressBar('[2025-01-01 00:00:00 TP0] 50%|x| 1/2 [00:01<00:01]')).toBeNull();
  });

  it('splits a bar joined onto the next log line into two messages', () => {
    const line =
      'Capturing batches (avail_mem=27.97 GB):   0%|          | 0/34 [00:00<?, ?it/s][2025-06-26 09:47:18 DP2 TP2] Try DeepGEMM JIT Compiling for <gemm_fp8_fp8_bf16_nt>';
    const { pieces, text } = normalizeLine(line);
    expect(pieces).toHaveLength(2);
    expect(pieces[0]?.bar).toEqual({ label: 'Capturing batches (avail_mem=27.97 GB)', done: 0, total: 34 });
    expect(pieces[1]).toMatchObject({
      text: 'Try DeepGEMM JIT Compiling for <gemm_fp8_fp8_bf16_nt>',
      rank: 2,
      bar: null,
    });
    expect(text).toBe('Try DeepGEMM JIT Compiling for <gemm_fp8_fp8_bf16_nt>');
  });

  it('handles a \\r-redrawn bar inside a docker compose wrapper', () => {
    const { pieces } = normalizeLine(
      'sglang-1  | Loading safetensors checkpoint shards:   0% Completed | 0/4 [00:00<?, ?it/s]\rLoading safetensors checkpoint shards:  75% Completed | 3/4 [00:03<00:01, 1.0s/it]',
    );
    expect(pieces[0]?.bar).toEqual({ label: 'Loading safetensors checkpoint shards', done: 3, total: 4 });
  });
});

describe('normalizeLine', () => {
  it('returns no pieces for blank lines', () => {
    expect(normalizeLine('').pieces).toEqual([]);
    expect(normalizeLine('2025-02-04 21:21:41 ').pieces).toEqual([]);
  });

  it('keeps the rank and level the prefixes named', () => {
    expect(normalizeLine('[2025-09-11 10:25:43 TP3] KV Cache is allocated. #tokens: 903439').pieces).toEqual([
      { text: 'KV Cache is allocated. #tokens: 903439', rank: 3, level: null, bar: null },
    ]);
  });
});

describe('JSON log records', () => {
  it('reads the message, level and span rank of a tracing JSON record, at the top level or under fields', () => {
    expect(
      normalizeLine(
        '{"timestamp":"2024-08-21T00:49:23Z","level":"WARN","fields":{"message":"Waiting for shard"},"target":"t","span":{"rank":2,"name":"shard-manager"}}',
      ).pieces,
    ).toEqual([{ text: 'Waiting for shard', rank: 2, level: 'warning', bar: null }]);
    expect(
      normalizeLine('{"timestamp":"2024-02-21T05:10:01Z","level":"INFO","message":"Connected","target":"r"}')
        .text,
    ).toBe('Connected');
  });

  it('splits a multi-line message into its lines, and reads a record cut at the terminal width', () => {
    const traceback = normalizeLine(
      '{"timestamp":"t","level":"ERROR","fields":{"message":"Shard complete standard error output:\\n\\nTraceback (most recent call last):\\n  File \\"x.py\\", line 1, in <module>\\nValueError: \\"bad\\""},"target":"launcher"}',
    );
    expect(traceback.pieces.map((piece) => piece.text)).toEqual([
      'Shard complete standard error output:',
      'Traceback (most recent call last):',
      '  File "x.py", line 1, in <module>',
      'ValueError: "bad"',
    ]);
    expect(traceback.pieces.every((piece) => piece.level === 'error')).toBe(true);
    expect(
      normalizeLine('{"timestamp":"t","level":"INFO","message":"Connected","filename":"main.rs","line_number')
        .text,
    ).toBe('Connected');
    // An object that is no log record stays as it is.
    expect(normalizeLine('{"model": "x"}').text).toBe('{"model": "x"}');
  });
});
