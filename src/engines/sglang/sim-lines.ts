// The start lines of one SGLang release, as the simulator prints them: each is the release's own format string
// from the catalogue (data/catalogue/sglang-<version>.json) with plausible values, so a rule and the simulator
// read the same shapes. The shapes are listed newest first; a release logs the first one it has.
import { formatFirst, loadCatalogue, type Catalogue, type LineShape } from '../catalogue.ts';
import { compareVersions } from '../../flags/schema/versions.ts';

export interface SglangStartLines {
  version: string;
  distEnd: string;
  weightEnd: (architecture: string) => string;
  kvAllocated: string;
  captureBegin: (batchSizes: readonly number[]) => string;
  captureEnd: (elapsed: string) => string;
  draftCaptureBegin: (kind: 'draft' | 'draft extend', availMem: string) => string;
  draftCaptureEnd: (
    kind: 'draft' | 'draft extend',
    elapsed: string,
    usage: string,
    availMem: string,
  ) => string;
  /** The model-info request SGLang's warm-up sends itself (`/model_info` from 0.5.9 on). */
  modelInfoPath: string;
}

export const SGLANG_SIM_DEFAULT_VERSION = '0.5.18';

const pick = (catalogue: Catalogue, what: string, shapes: readonly LineShape[]): string => {
  const line = formatFirst(catalogue, shapes);
  if (line === null) throw new Error(`the SGLang ${catalogue.version} catalogue has no ${what} line`);
  return line;
};

// The lines of one release (the newest bundled one by default).
export const sglangStartLines = (version: string = SGLANG_SIM_DEFAULT_VERSION): SglangStartLines => {
  const catalogue = loadCatalogue('sglang', version);
  const bs = (sizes: readonly number[]): string => `[${sizes.join(', ')}]`;
  return {
    version,
    distEnd: pick(catalogue, 'distributed-init end', [
      { starts: 'Init torch distributed ends. elapsed=', values: ['2.31', '1.25'] },
      { starts: 'Init torch distributed ends.', values: ['1.25'] },
    ]),
    weightEnd: (architecture) =>
      pick(catalogue, 'weight-load end', [
        {
          starts: 'Load weight end. elapsed={} s, type={}, {}avail',
          values: ['88.12', architecture, 'dtype=torch.bfloat16, ', '40.69', '36.73'],
        },
        {
          starts: 'Load weight end. elapsed=',
          values: ['88.12', architecture, 'torch.bfloat16', '40.69', '36.73'],
        },
        { starts: 'Load weight end. type=', values: [architecture, 'torch.bfloat16', '40.69', '36.73'] },
      ]),
    kvAllocated: pick(catalogue, 'KV cache', [
      {
        starts: '{} {}. dtype: {}, #tokens: {}, K size',
        values: ['KV Cache', 'is allocated', 'torch.bfloat16', '903439', '13.79', '13.79'],
      },
      {
        starts: 'KV Cache is allocated. dtype: {}, #tokens: {}, K size',
        values: ['torch.bfloat16', '903439', '13.79', '13.79'],
      },
      { starts: 'KV Cache is allocated. #tokens: {}, K size', values: ['903439', '13.79', '13.79'] },
      { starts: 'KV Cache is allocated. K size', values: ['13.79', '13.79'] },
    ]),
    captureBegin: (sizes) =>
      pick(catalogue, 'graph capture begin', [
        {
          starts: 'Capture {} {} begin. backend={}, num_tokens_per_',
          values: ['target decode', 'CUDA graph', 'full', '1', bs(sizes), '11.16'],
        },
        { starts: 'Capture {} begin. This can take', values: ['cuda graph', '11.16'] },
        { starts: 'Capture cuda graph begin.', values: ['11.16'] },
      ]),
    captureEnd: (elapsed) =>
      pick(catalogue, 'graph capture end', [
        {
          starts: 'Capture {} {} end. elapsed=',
          values: ['target decode', 'CUDA graph', elapsed, '0.89', '10.26'],
        },
        { starts: 'Capture {} end. Time elapsed', values: ['cuda graph', elapsed, '0.89', '10.26'] },
        { starts: 'Capture cuda graph end.', values: [elapsed, '0.89', '10.26'] },
      ]),
    draftCaptureBegin: (kind, availMem) =>
      kind === 'draft'
        ? pick(catalogue, 'draft capture begin', [
            {
              starts: 'Capture {} {} begin. backend={}, num_tokens_per_',
              values: ['draft decode', 'CUDA graph', 'full', '1', bs([1, 2, 4, 8]), availMem],
            },
            { starts: 'Capture draft cuda graph begin.', values: [availMem] },
          ])
        : pick(catalogue, 'draft extend capture begin', [
            { starts: 'Capture draft extend CUDA graph begin. step=', values: ['1', availMem] },
            { starts: 'Capture draft extend cuda graph begin. This', values: [availMem] },
          ]),
    draftCaptureEnd: (kind, elapsed, usage, availMem) =>
      kind === 'draft'
        ? pick(catalogue, 'draft capture end', [
            {
              starts: 'Capture {} {} end. elapsed=',
              values: ['draft decode', 'CUDA graph', elapsed, usage, availMem],
            },
            { starts: 'Capture draft cuda graph end.', values: [elapsed, usage, availMem] },
          ])
        : pick(catalogue, 'draft extend capture end', [
            { starts: 'Capture draft extend CUDA graph end. step=', values: ['1', elapsed, usage, availMem] },
            { starts: 'Capture draft extend cuda graph end.', values: [elapsed, usage, availMem] },
          ]),
    modelInfoPath:
      version === 'main' || compareVersions(version, '0.5.9') >= 0 ? '/model_info' : '/get_model_info',
  };
};
