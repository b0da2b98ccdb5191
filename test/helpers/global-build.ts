// Vitest's global setup: builds dist/ once, before any test, when src/ is newer (after `npm ci`, whose prepare
// script builds it, there is nothing to do), so that tests running bin/vigil.js see the current code.
import { ensureBuilt } from './build.ts';

export default (): void => {
  ensureBuilt();
};
