// vLLM: everything vigil knows about it, for the registry (src/engines/index.ts). vLLM has no decisive ready line.
import type { EngineSpec } from '../types.ts';
import { vllmDraft } from './draft.ts';
import { adviseVllm } from './advice.ts';
import { VLLM_FRAME_CONTEXTS, VLLM_NOTICE_CONTEXTS, VLLM_SIGNATURES } from './failures.ts';
import { VLLM_FLAGS } from './flags.ts';
import {
  VLLM_CAPTURE_ENDS,
  VLLM_HEARTBEATS,
  VLLM_IN_PROCESS_START,
  VLLM_PHASE_NEEDLES,
  VLLM_PHASES,
  VLLM_QUOTED_LINES,
  VLLM_SERVING_LINE,
  VLLM_STARTED_LINE,
  VLLM_STOP_LINES,
} from './log.ts';
import { vllmVersionFromLog } from './version.ts';
import { vllmSpec } from './spec.ts';

export const vllm: EngineSpec = {
  id: 'vllm',
  label: 'vLLM',
  defaultPort: 8000,
  healthPath: '/health',
  healthPathWithoutLog: '/health',
  readyLine: null,
  // uvicorn's line is printed before the socket binds: the last line of a start, not proof of readiness.
  upLine: VLLM_STARTED_LINE,
  servingLine: VLLM_SERVING_LINE,
  inProcessStart: VLLM_IN_PROCESS_START,
  captureEnds: VLLM_CAPTURE_ENDS,
  probeTriggers: [/Application startup complete\./, /API server: HTTP server started/],
  heartbeatLines: VLLM_HEARTBEATS,
  stopLines: VLLM_STOP_LINES,
  quotedLines: VLLM_QUOTED_LINES,
  // Its usage-statistics thread failing (cpuinfo's JSONDecodeError in a container) stops nothing.
  survivedThreads: [/^Exception in thread [\w-]+ \(_report_usage_worker\):/],
  phaseRules: VLLM_PHASES,
  phaseNeedles: VLLM_PHASE_NEEDLES,
  // vLLM's API server lists its routes at start (`launcher.py:27] Route: /v1/rerank, Methods: POST`).
  // Its serving metrics line (`Avg prompt throughput: … GPU KV cache usage`) names no engine but is vLLM's alone.
  // Its process tags (`(APIServer pid=14) `, `(EngineCore_DP0 pid=72) `) name no engine either, nor does V1's
  // engine line where a post elided its version (`Initializing a V1 LLM engine ... with config`). V0's engine classes
  // (`MQLLMEngine is already dead`, `AsyncLLMEngine`) are vLLM's names too. A terminal's copy colours the tags
  // (`\x1b[1;36m(APIServer pid=14)\x1b[0;0m `), and a web page's copy may keep the code without its escape (`\W`: the escape, no control character in a pattern);
  // a wrapper's prefix may come first (`[server] `, an indent).
  hints:
    /vllm|vLLM|Vllm|\] Route: \/\S*, Methods: |Avg prompt throughput: .*GPU KV cache usage|(?:^|[\s\]:m])\((?:APIServer|ApiServer_\d+|EngineCore(?:_DP\d+)?) pid=\d+\)(?:(?:\W|\^\[)?\[[\d;]*m)? |Initializing (?:an|a V[01]) LLM engine\b|\b(?:MQ|Async)LLMEngine\b/,
  // vLLM's logger format (`ERROR 03-19 10:48:40 worker_base.py:467] …`, from 0.7 `[worker_base.py:467]`): other
  // programs built on vLLM print it too (SGLang imports vLLM's kernels), so it decides only where nothing names an engine.
  weakHints:
    /\b(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \[?[\w.-]+\.py:\d+\]/,
  // Not the process tags: they begin every line (heartbeats included), and the lines read for other reasons carry
  // them too, so searching each line for them would only slow a long log down.
  hintNeedles: ['vLLM', 'vllm', 'Vllm', 'Route: /', 'Avg prompt', 'LLM engine', 'LLMEngine'],
  servingHintNeedles: ['Avg prompt'],
  framePackages: ['vllm/'],
  frameContexts: VLLM_FRAME_CONTEXTS,
  noticeContexts: VLLM_NOTICE_CONTEXTS,
  versionFromLog: vllmVersionFromLog,
  signatures: VLLM_SIGNATURES,
  advise: adviseVllm,
  flags: VLLM_FLAGS,
  spec: vllmSpec,
  draft: vllmDraft,
};
