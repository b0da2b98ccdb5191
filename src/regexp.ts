// A literal as a regular-expression source: the one escape every module that builds patterns from text uses.
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
