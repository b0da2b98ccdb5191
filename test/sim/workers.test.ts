import { describe, expect, it } from 'vitest';
import { workerRoles, workerTitle } from '../../src/sim/workers.ts';

describe('workerRoles', () => {
  it('gives SGLang a scheduler per rank plus a detokenizer, and vLLM an EngineCore plus workers when TP > 1', () => {
    expect(workerRoles('sglang', 2)).toEqual(['scheduler_TP0', 'scheduler_TP1', 'detokenizer']);
    expect(workerRoles('vllm', 1)).toEqual(['EngineCore_DP0']);
    expect(workerRoles('vllm', 2)).toEqual(['EngineCore_DP0', 'Worker_TP0', 'Worker_TP1']);
  });

  it('titles the processes as the engines do', () => {
    expect(workerTitle('sglang', 'scheduler_TP3')).toBe('sglang::scheduler_TP3');
    expect(workerTitle('vllm', 'EngineCore_DP0')).toBe('VLLM::EngineCore_DP0');
  });
});
