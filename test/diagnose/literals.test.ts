import { describe, expect, it } from 'vitest';
import { requiredLiterals, topLevelAlternatives } from '../../src/diagnose/literals.ts';
import { getEngine } from '../../src/engines/index.ts';

describe('requiredLiterals', () => {
  it.each([
    [/Load weight (?:begin|end)/, ['Load weight ']],
    [/^server_args=ServerArgs\(|^ServerArgs\(/, ['server_args=ServerArgs(', 'ServerArgs(']],
    [/ab+c/, ['ab']],
    [/ab{0,2}cd/, ['cd']],
    [/ab?cd/, ['cd']],
    [/x\d{2}yyy/, ['yyy']],
    [/a\.b\(c/, ['a.b(c']],
    [/(?=xyz)abc/, ['abc']],
    [/(?<name>hello|world)!/, ['hello', 'world']],
    [/"(?:GET \/get_model_info|POST \/generate) HTTP/, ['GET /get_model_info', 'POST /generate']],
    [/[abc]def/, ['def']],
    [/\u0041bc/, ['bc']],
    [/x\x41yz/, ['yz']],
    [/\p{L}xyz/u, ['xyz']],
    [/(a)\1bcd/, ['bcd']],
    [/a|b/, ['a', 'b']],
  ])('%s needs one of %j', (pattern, expected) => {
    expect(requiredLiterals(pattern)).toEqual(expected);
  });

  it('gives up on alternatives without a literal and on case folding', () => {
    expect(requiredLiterals(/^\d+$/)).toBeNull();
    expect(requiredLiterals(/abc|\w+/)).toBeNull();
    expect(requiredLiterals(/abc/i)).toBeNull();
    expect(requiredLiterals(/(?:abc)?/)).toBeNull();
  });

  it('derives literals that every sample line of the engines holds', () => {
    const samples: Record<string, string> = {
      sglang: '[2025-09-11 10:25:43 TP0] Load weight begin. avail mem=77.43 GB',
      vllm: 'Waiting for 1 local, 0 remote core engine proc(s) to start.',
      tgi: 'Waiting for shard to be ready...',
    };
    for (const [id, line] of Object.entries(samples)) {
      const engine = getEngine(id as 'sglang' | 'vllm' | 'tgi');
      const patterns = [...engine.heartbeatLines, ...engine.phaseRules.map((rule) => rule.pattern)];
      const matching = patterns.filter((pattern) => pattern.test(line.replace(/^\[[^\]]*\] /, '')));
      expect(matching.length, id).toBeGreaterThan(0);
      for (const pattern of matching) {
        const literals = requiredLiterals(pattern) ?? [];
        expect(
          literals.some((literal) => line.includes(literal)),
          pattern.source,
        ).toBe(true);
      }
    }
  });
});

describe('topLevelAlternatives', () => {
  it('splits only at top-level bars', () => {
    expect(topLevelAlternatives(String.raw`a|(b|c)|[|]|\|d`)).toEqual(['a', '(b|c)', '[|]', String.raw`\|d`]);
  });
});
