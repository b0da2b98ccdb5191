// The lines an engine prints while it serves: uvicorn's access log, SGLang's `Prefill batch` / `Decode batch`
// lines (docs/engines/facts.md; sglang-ready-01.log) and its failed health check.
import { createSglangLog } from '../log/sglang-log.ts';
import { createVllmLog } from '../log/vllm-log.ts';
import type { SimEngine, SimSink } from '../types.ts';
import type { DecodeReport } from './stats.ts';

export interface ServingLog {
  access(client: string, method: string, path: string, status: number): void;
  prefill(promptTokens: number, running: number): void;
  decode(report: DecodeReport): void;
  /** /health answered 503 after ready (the flap failure). */
  healthFailed(): void;
}

const sglangServingLog = (sink: SimSink): ServingLog => {
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

const vllmServingLog = (sink: SimSink, pid: number): ServingLog => {
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

// The serving lines of one engine.
export const createServingLog = (engine: SimEngine, sink: SimSink, pid: number): ServingLog =>
  engine === 'sglang' ? sglangServingLog(sink) : vllmServingLog(sink, pid);
