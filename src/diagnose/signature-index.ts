// The failure signatures of every engine, indexed by their needles; traceback frames and the engine they name.
import { NAMED_ENGINES } from '../engines/index.ts';
import type { Signature } from './facts.ts';
import { escapeRegExp } from '../regexp.ts';
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
const ORDER = new Map(SIGNATURES.map((signature, index) => [signature, index]));

// Each needle with the signatures of every needle it contains (itself included): a line that holds a needle holds
// all of those, so one match stands for them.
const IMPLIED = new Map<string, Signature[]>();
for (const needle of BY_NEEDLE.keys()) {
  const implied = new Set<Signature>();
  for (const [inner, signatures] of BY_NEEDLE)
    if (needle.includes(inner)) for (const signature of signatures) implied.add(signature);
  IMPLIED.set(needle, [...implied]);
}

// Every needle at once, longest first: where two needles start at one place the longer one matches, and it
// implies the shorter. One pass over the line instead of one `includes` per needle.
const ANY_NEEDLE = new RegExp(
  [...BY_NEEDLE.keys()]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|'),
  'g',
);

// The signatures a line can match, in SIGNATURES order (fallbacks last).
export const candidatesFor = (text: string): Signature[] => {
  const found = new Set<Signature>();
  ANY_NEEDLE.lastIndex = 0;
  // After each match the search goes on from the next character, so overlapping needles are found too.
  for (let match = ANY_NEEDLE.exec(text); match !== null; match = ANY_NEEDLE.exec(text)) {
    for (const signature of IMPLIED.get(match[0]) ?? []) found.add(signature);
    ANY_NEEDLE.lastIndex = match.index + 1;
  }
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
  const at = path.search(PACKAGE_AT);
  return at === -1 ? path.split('/').slice(-2).join('/') : path.slice(at);
};

// The file of a traceback frame line (`File ".../sglang/srt/models/qwen3.py", line 493, in load_weights`), shortened.
export const frameOf = (text: string): string | null => {
  const match = FRAME.exec(text);
  return match === null ? null : shortenPath(match[1] ?? '');
};
