// The cheap prefilter in front of the expensive rules: literals of which every line a rule can match contains one.
// A line with none of them can change neither the diagnosis nor the phase, so a 1 GB log is searched for these
// literals only (String#indexOf is a Boyer-Moore search: far faster than one regular expression per line).
import type { Signature } from './facts.ts';

// Phase lines of every engine (src/engines/*/log.ts); a test checks each fixture phase line contains one.
export const PHASE_NEEDLES: readonly string[] = [
  // SGLang
  'ServerArgs(',
  'Init torch distributed',
  'using nccl==',
  'Load weight ',
  'checkpoint shards',
  'KV Cache is allocated',
  'Memory pool end',
  'num tokens (',
  'Capture cuda graph',
  'Capturing ',
  'Capture draft',
  'max_total_num_tokens=',
  'get_model_info',
  'POST /generate',
  // uvicorn (SGLang and vLLM)
  'Started server process',
  'Uvicorn running on',
  // vLLM
  'vLLM API server version',
  'detected platform',
  'non-default args',
  'LLM engine',
  'in world size',
  'world_size=',
  'Starting to load model',
  'Loading weights took',
  'Model loading took',
  'Loading model weights took',
  'Loading drafter',
  'torch.compile',
  'Dynamo bytecode',
  'Compiling a graph',
  'compiled graph',
  'KV cache',
  'blocks: ',
  'Memory profiling',
  'Maximum concurrency',
  'Graph capturing',
  'init engine',
  'warmup completed',
  'Starting vLLM',
  'Available routes',
  // TGI
  'Args {',
  'download process',
  'downloaded weights',
  'Starting shard',
  'Shard ready',
  'Starting Webserver',
  'Warming up',
  'max batch total tokens',
];

// Lines that end a start (ready lines) or begin one (a restart), and engine hints; never dropped.
export const ALWAYS_NEEDLES: readonly string[] = [
  'ready to roll',
  'Application startup complete',
  'Connected',
  'ServerArgs(',
  'vLLM API server version',
  'Args {',
  // Engine hints for --engine auto; traceback frames for the loader file behind a KeyError.
  'sglang',
  'SGLang',
  'launch_server',
  'vllm',
  'vLLM',
  'Vllm',
  'text_generation',
  'text-generation',
  'File "',
  // Tensor-parallel size echoes.
  'tp_size=',
  'tensor_parallel_size',
];

// Drops duplicates and needles that contain another needle (the shorter one already finds those lines).
export const minimizeNeedles = (needles: readonly string[]): string[] => {
  const unique = [...new Set(needles)].sort((a, b) => a.length - b.length);
  const kept: string[] = [];
  for (const needle of unique) if (!kept.some((shorter) => needle.includes(shorter))) kept.push(needle);
  return kept;
};

// Every literal any signature needs.
export const signatureNeedles = (signatures: readonly Signature[]): string[] =>
  signatures.flatMap((signature) => signature.needles);

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// One regular expression that finds any of the needles in a single line.
export const needleRegExp = (needles: readonly string[]): RegExp =>
  new RegExp(needles.map(escapeRegExp).join('|'));
