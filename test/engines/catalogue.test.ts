// Every rule in an engine folder matches its engine's own strings (data/catalogue, regenerated from the engines'
// sources by scripts/catalogue): each sample line of an engine-origin rule must fit a logged or raised format
// string of every catalogued release the rule claims, so a rule that drifts from the engine fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NAMED_ENGINES } from '../../src/engines/index.ts';
import { holdsFor, type Releases } from '../../src/engines/releases.ts';
import { escapeRegExp } from '../../src/regexp.ts';

interface Catalogue {
  engine: string;
  version: string;
  messages: { text: string; kind: string; file: string }[];
}

const DIR = new URL('../../data/catalogue/', import.meta.url).pathname;
const catalogues: Catalogue[] = readdirSync(DIR)
  .filter((name) => name.endsWith('.json'))
  .map((name) => JSON.parse(readFileSync(join(DIR, name), 'utf8')) as Catalogue);

// A format string as a pattern: each `{}` stands for any text; a sample may carry more after the message, and
// an exception's message may be logged with or without its class name (`RuntimeError: `).
const templatePattern = (full: string, kind: string): RegExp => {
  // A log line ends at the first newline of its message.
  const text = full.split('\n')[0] ?? '';
  const exception = kind === 'raise' ? /^(\w+: )/.exec(text)?.[1] : undefined;
  const body = exception === undefined ? text : text.slice(exception.length);
  const head = exception === undefined ? '' : `(?:${escapeRegExp(exception)})?`;
  return new RegExp(`^${head}${body.split('{}').map(escapeRegExp).join('[\\s\\S]*?')}`);
};

// The words a template holds of its own: its first line without its placeholders and its exception's class.
const literalOf = (full: string, kind: string): string => {
  const text = full.split('\n')[0] ?? '';
  const body = kind === 'raise' ? text.replace(/^\w+: /, '') : text;
  return body.split('{}').join(' ');
};

// Built once per catalogue: every rule is checked against the same few thousand patterns.
const patternCache = new Map<Catalogue, RegExp[]>();
const patternsOf = (catalogue: Catalogue): RegExp[] => {
  let patterns = patternCache.get(catalogue);
  if (patterns === undefined) {
    // A template with no words of its own (`{}`, `Exception: {}`, `{} {}`: a message built elsewhere) would fit any
    // sample line: it attests no rule, so it is left out.
    patterns = catalogue.messages
      .filter((message) => /\w{3}/.test(literalOf(message.text, message.kind)))
      .map((message) => templatePattern(message.text, message.kind));
    patternCache.set(catalogue, patterns);
  }
  return patterns;
};

interface Claim {
  engine: string;
  rule: string;
  pattern: RegExp;
  releases: Releases | undefined;
  samples: readonly string[];
}

const claims: Claim[] = NAMED_ENGINES.flatMap((engine) => [
  ...engine.phaseRules
    .filter((rule) => rule.origin !== 'dependency')
    .map((rule) => ({
      engine: engine.id,
      rule: `${rule.phase} ${rule.pattern.source.slice(0, 40)}`,
      pattern: rule.pattern,
      releases: rule.releases,
      samples: (rule as { samples?: readonly string[] }).samples ?? [],
    })),
  // Engine line rules other than phases: quoted lines, stop lines and notices.
  ...[
    ...(engine.quotedLines ?? []).map((rule) => ({ kind: 'quoted', rule })),
    ...(engine.stopLines ?? []).map((rule) => ({ kind: 'stop', rule })),
    ...(engine.noticeContexts ?? []).map((rule) => ({ kind: 'notice', rule })),
  ].map(({ kind, rule }) => ({
    engine: engine.id,
    rule: `${kind} ${rule.pattern.source.slice(0, 40)}`,
    pattern: rule.pattern,
    releases: rule.releases,
    samples: rule.samples,
  })),
  ...engine.signatures
    .filter((signature) => signature.origin !== 'dependency')
    .map((signature) => ({
      engine: engine.id,
      rule: signature.id,
      pattern: signature.pattern,
      releases: signature.releases,
      samples: signature.samples ?? [],
    })),
]);

// Claims that no template with words of its own attests, each with why. Listed, not skipped: the test checks that each
// fails exactly so, so a rule that drifts fails and a claim that becomes attested must leave the list.
const UNATTESTED: Record<string, { releases: string[]; why: string }> = {
  'tgi: process-up ^Args \\{': {
    releases: ['3.3.7'],
    why: "the launcher prints its arguments with Rust's Debug format (`{:?}`): a template with no words",
  },
};

describe('engine rules against the catalogue', () => {
  it('has a catalogue for every engine and its newest release', () => {
    for (const engine of NAMED_ENGINES) {
      const versions = catalogues.filter((c) => c.engine === engine.id).map((c) => c.version);
      expect(versions.length, engine.id).toBeGreaterThan(0);
      if (engine.flags !== undefined) expect(versions, engine.id).toContain(engine.flags.newest);
    }
  });

  it('lists only claims there are, each with a reason', () => {
    const names = new Set(claims.map((claim) => `${claim.engine}: ${claim.rule}`));
    for (const [name, gap] of Object.entries(UNATTESTED)) {
      expect(names.has(name), name).toBe(true);
      expect(gap.why.length).toBeGreaterThan(20);
    }
  });

  it.each(claims.map((claim) => [`${claim.engine}: ${claim.rule}`, claim] as const))('%s', (_name, claim) => {
    expect(claim.samples.length, 'an engine-origin rule needs a sample line').toBeGreaterThan(0);
    for (const sample of claim.samples) expect(claim.pattern.test(sample), sample).toBe(true);
    const releases = catalogues.filter(
      (c) => c.engine === claim.engine && holdsFor(claim.releases, c.version),
    );
    // A rule for releases older than every catalogue (a legacy shape) is checked by its samples alone.
    const misses = releases
      .filter((catalogue) => {
        const patterns = patternsOf(catalogue);
        return !claim.samples.some((sample) => patterns.some((pattern) => pattern.test(sample)));
      })
      .map((catalogue) => catalogue.version);
    expect(misses, 'releases whose catalogue has none of the sample lines').toEqual(
      UNATTESTED[`${claim.engine}: ${claim.rule}`]?.releases ?? [],
    );
  });
});
