import { fileURLToPath } from 'node:url';

// vigil's own executable entry point, so vigil can run `vigil sim` without anything on PATH.
export const vigilEntry = (): string => fileURLToPath(new URL('../bin/vigil.js', import.meta.url));

// The package root (holds data/), the same from src/ under tsx and from dist/ when built.
export const packageRoot = (): string => fileURLToPath(new URL('..', import.meta.url));

// The argv that runs vigil itself: the current Node binary and vigil's entry point.
export const vigilCommand = (...args: string[]): string[] => [process.execPath, vigilEntry(), ...args];
