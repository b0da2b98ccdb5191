// The start lines of one vLLM release, as the simulator prints them, from the release's own format strings in
// the catalogue (data/catalogue/vllm-<version>.json): the version banner changed in 0.15, the HTTP line on main.
import { formatFirst, loadCatalogue } from '../catalogue.ts';

export interface VllmStartLines {
  version: string;
  /** `vLLM server version X, serving model Y` (≥ 0.15) or `vLLM API server version X`. */
  banner: (model: string) => string;
  /** The line after the bind on releases that print one (main: `API server: HTTP server started`). */
  httpStarted: string | null;
}

export const VLLM_SIM_DEFAULT_VERSION = '0.20.1';

// The lines of one release (the newest bundled one by default).
export const vllmStartLines = (version: string = VLLM_SIM_DEFAULT_VERSION): VllmStartLines => {
  const catalogue = loadCatalogue('vllm', version);
  const shown = version === 'main' ? '0.21.0.dev0' : version;
  return {
    version: shown,
    banner: (model) => {
      const line = formatFirst(catalogue, [
        { starts: 'vLLM server version {}, serving model', values: [shown, model] },
        { starts: 'vLLM API server version', values: [shown] },
      ]);
      if (line === null) throw new Error(`the vLLM ${version} catalogue has no version banner`);
      return line;
    },
    httpStarted: formatFirst(catalogue, [{ starts: 'API server: HTTP server started', values: [] }]),
  };
};
