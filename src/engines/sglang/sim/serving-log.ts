// SGLang's lines while it serves: uvicorn's access log, `Prefill batch` / `Decode batch` (docs/engines/facts.md;
// sglang-ready-01.log) and its failed health check.
import type { ServingLog } from '../../../sim/api/serving-log.ts';
import type { SimSink } from '../../../sim/types.ts';
import { createSglangLog } from './log.ts';

export const sglangServingLog = (sink: SimSink): ServingLog => {
  const log = createSglangLog(sink);
  return {
    access: (client, method, path, status) => {
      log.access(method, path, status, client);
    },
    prefill: (promptTokens, running) => {
      log.rank(
        0,
        `Prefill batch. #new-seq: 1, #new-token: ${promptTokens}, #cached-token: 0, token usage: 0.00, #running-req: ${running}, #queue-req: 0,`,
      );
    },
    decode: (report) => {
      const spec =
        report.acceptLength === null
          ? ''
          : `accept len: ${report.acceptLength.toFixed(2)}, accept rate: ${(report.acceptRate ?? 0).toFixed(2)}, `;
      log.rank(
        0,
        `Decode batch, #running-req: ${report.running}, #token: ${report.tokens}, token usage: 0.00, ${spec}cuda graph: True, gen throughput (token/s): ${report.genThroughput.toFixed(2)}, #queue-req: 0`,
      );
    },
    healthFailed: () => {
      log.main("Health check failed. Server couldn't get a response from detokenizer for last 20 seconds.");
    },
  };
};
