// The failure signatures of every engine, indexed by their needles; traceback frames and the engine they name.
import { NAMED_ENGINES } from '../engines/index.ts';
import type { Signature } from './facts.ts';
import { escapeRegExp } from '../regexp.ts';
import { createLiteralMatcher } from './literal-automaton.ts';
import { GENERIC_SIGNATURES } from './signatures.ts';

// Every signature, fallbacks last (they apply only to lines nothing else matched).
export const SIGNATURES: readonly Signature[] = [
  ...GENERIC_SIGNATURES,
  ...NAMED_ENGINES.flatMap((engine) => engine.signatures),
].sort((a, b) => Number(a.fallback === true) - Number(b.fallback === true));

// Signatures by needle: a line runs only the signatures whose needles it contains.
const BY_NEEDLE = new Map<string, Signature[]>();
for (const signature of SIGNATURES) {
  for (const needle of signature.needles)
    BY_NEEDLE.set(needle, [...(BY_NEEDLE.get(needle) ?? []), signature]);
}
const NEEDLE_SIGNATURES = [...BY_NEEDLE.values()];
const ANY_NEEDLE = createLiteralMatcher([...BY_NEEDLE.keys()]);
const ORDER = new Map(SIGNATURES.map((signature, index) => [signature, index]));

// The signatures a line can match, in SIGNATURES order (fallbacks last). One pass over the line finds every needle
// in it, also needles inside or overlapping others.
export const candidatesFor = (text: string): Signature[] => {
  const found = new Set<Signature>();
  ANY_NEEDLE.forEach(text, (index) => {
    for (const signature of NEEDLE_SIGNATURES[index] ?? []) found.add(signature);
  });
  if (found.size < 2) return [...found];
  return [...found].sort((a, b) => (ORDER.get(a) ?? 0) - (ORDER.get(b) ?? 0));
};

const FRAME = /^File "([^"]+)", line \d+, in (\w+)/;

const ENGINE_PACKAGES = NAMED_ENGINES.flatMap((engine) => engine.framePackages);
const PACKAGE_NAMES = [...ENGINE_PACKAGES, 'transformers/', 'torch/'].map(escapeRegExp).join('|');
const ENGINE_NAMES = ENGINE_PACKAGES.map(escapeRegExp).join('|');
// The last package folder of a path that is not followed by an engine's own folder.
const PACKAGE_AT = new RegExp(`(?:${PACKAGE_NAMES})(?!.*\\/(?:${ENGINE_NAMES}))`);

// The path from the package folder on, e.g. `sglang/srt/models/qwen3.py`.
const shortenPath = (path: string): string => {
  const packages = Math.max(path.lastIndexOf('site-packages/'), path.lastIndexOf('dist-packages/'));
  if (packages !== -1) return path.slice(packages + 'site-packages/'.length);
  // A source checkout installed in place keeps the package under `src/` (`transformers/src/transformers/…`).
  const checkout = path.replace(/\/([\w-]+)\/src\/(?=\1\/)/, '/');
  const at = checkout.search(PACKAGE_AT);
  return at === -1 ? checkout.split('/').slice(-2).join('/') : checkout.slice(at);
};

// The file of a traceback frame line (`File ".../sglang/srt/models/qwen3.py", line 493, in load_weights`), shortened.
export const frameOf = (text: string): string | null => {
  const match = FRAME.exec(text);
  return match === null ? null : shortenPath(match[1] ?? '');
};
