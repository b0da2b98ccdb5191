// Which EAGLE-3 drafter layout a checkpoint is in, from its tensor names and config.json alone. The
// speculators training layout is known here; each engine describes its own (src/engines/<engine>/draft.ts).
import { ENGINE_DRAFT_LAYOUTS } from '../engines/index.ts';

export interface LayoutSignature {
  id: string;
  label: string;
  /** The evidence when the checkpoint is in this layout, else null. */
  match(names: readonly string[], config: Record<string, unknown> | null): string[] | null;
}

export interface LayoutGuess {
  layout: string;
  label: string;
  /** The evidence, for `inspect`. */
  reasons: string[];
}

const hasLayers = (names: readonly string[]): boolean => names.some((n) => /^layers\.\d+\./.test(n));

const SPECULATORS: LayoutSignature = {
  id: 'speculators-eagle3',
  label: 'speculators EAGLE-3 (layers.0.*)',
  match: (names, config) => {
    if (!hasLayers(names) || names.some((n) => n.startsWith('midlayer.'))) return null;
    const type = config?.['speculators_model_type'];
    if (typeof type === 'string')
      return [
        'decoder layer named layers.N.*',
        `config.json has speculators_model_type ${JSON.stringify(type)}`,
      ];
    return config === null
      ? ['decoder layer named layers.N.*', 'no config.json: assuming the speculators trainer wrote it']
      : null;
  },
};

export const UNKNOWN_LAYOUT = { id: 'unknown', label: 'unknown (not an EAGLE-3 drafter vigil recognises)' };

export const detectLayout = (
  names: readonly string[],
  config: Record<string, unknown> | null,
): LayoutGuess => {
  const eagle =
    names.includes('fc.weight') && (hasLayers(names) || names.some((n) => n.startsWith('midlayer.')));
  if (!eagle) {
    return {
      layout: UNKNOWN_LAYOUT.id,
      label: UNKNOWN_LAYOUT.label,
      reasons: ['no fc.weight next to a midlayer.* or layers.N.* decoder layer'],
    };
  }
  for (const signature of [SPECULATORS, ...ENGINE_DRAFT_LAYOUTS]) {
    const reasons = signature.match(names, config);
    if (reasons !== null) return { layout: signature.id, label: signature.label, reasons };
  }
  return {
    layout: UNKNOWN_LAYOUT.id,
    label: UNKNOWN_LAYOUT.label,
    reasons: ['config.json names no EAGLE-3 architecture vigil knows'],
  };
};
