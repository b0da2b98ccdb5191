// vLLM's lines while it serves: uvicorn's access log under the API server's prefix.
import type { ServingLog } from '../../../sim/api/serving-log.ts';
import type { SimSink } from '../../../sim/types.ts';
import { createVllmLog } from './log.ts';

export const vllmServingLog = (sink: SimSink, pid: number): ServingLog => {
  const log = createVllmLog(sink);
  const api = { name: 'APIServer', pid };
  return {
    access: (client, method, path, status) => {
      log.access(api, client, method, path, status);
    },
    prefill: () => undefined,
    decode: () => undefined,
    healthFailed: () => undefined,
  };
};
