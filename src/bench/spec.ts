// Speculative acceptance over a run, read the way the server's engine reports it: the engine registry says where
// and how (src/engines/<engine>/spec.ts); this module only does the GETs and asks.
import { ENGINES } from '../engines/index.ts';
import type { EngineId, SpecFigures, SpecReader, SpecSnapshot } from '../engines/types.ts';
import { mean } from './stats.ts';
import { getText, underBase } from './get.ts';
import type { Transport } from './transport.ts';

const SPEC_TIMEOUT_MS = 5000;

export interface SpecProbe {
  engine: EngineId;
  reader: SpecReader;
  before: SpecSnapshot;
}

const snapshot = async (
  transport: Transport,
  base: URL,
  reader: SpecReader,
  headers: Record<string, string>,
): Promise<SpecSnapshot | null> => {
  try {
    const answer = await getText(transport, underBase(base, reader.path), SPEC_TIMEOUT_MS, headers);
    return answer.status === 200 ? reader.parse(answer.body) : null;
  } catch {
    return null;
  }
};

// Finds which engine serves `base` (or checks the one given) by its spec endpoint; null when none answers.
export const openSpecProbe = async (
  transport: Transport,
  base: URL,
  engine: EngineId | 'auto',
  headers: Record<string, string> = {},
): Promise<SpecProbe | null> => {
  const candidates = Object.values(ENGINES).filter((spec) => engine === 'auto' || spec.id === engine);
  for (const spec of candidates) {
    if (spec.spec === undefined) continue;
    const before = await snapshot(transport, base, spec.spec, headers);
    if (before !== null) return { engine: spec.id, reader: spec.spec, before };
  }
  return null;
};

// The acceptance over the run since the probe was opened; null without a drafter (or a server that says nothing).
export const closeSpecProbe = async (
  transport: Transport,
  base: URL,
  probe: SpecProbe | null,
  headers: Record<string, string> = {},
): Promise<SpecFigures | null> => {
  if (probe === null) return null;
  const after = await snapshot(transport, base, probe.reader, headers);
  return after === null ? null : probe.reader.acceptance(probe.before, after);
};

// The engine's per-request acceptance (SGLang's /generate meta_info), as the mean over a few requests; null
// when the engine has no such request or the answers carry no figures.
export const perRequestAcceptance = async (
  transport: Transport,
  base: URL,
  reader: SpecReader,
  prompts: readonly string[],
  maxTokens: number,
  headers: Record<string, string> = {},
): Promise<number | null> => {
  const per = reader.perRequest;
  if (per === undefined) return null;
  const lengths: number[] = [];
  for (const prompt of prompts) {
    const chunks: Buffer[] = [];
    let status = 0;
    try {
      await transport.send(
        {
          method: 'POST',
          url: underBase(base, per.path),
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(per.body(prompt, maxTokens)),
          timeoutMs: 60_000,
        },
        {
          head: (code) => {
            status = code;
          },
          data: (chunk) => chunks.push(chunk),
        },
      );
      if (status !== 200) continue;
      const length = per.acceptLength(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      if (length !== null) lengths.push(length);
    } catch {
      continue;
    }
  }
  return mean(lengths);
};
