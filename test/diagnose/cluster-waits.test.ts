// Distributed setups that cannot go on: a wait for GPUs Ray does not have, a world that does not match the parallel
// sizes, a store that cannot bind its port.
import { describe, expect, it } from 'vitest';
import { diagnoseLines } from './feed.ts';

const wait =
  "INFO 01-14 15:48:51 ray_utils.py:183] Waiting for creating a placement group of specs for 30 seconds. specs=[{'GPU': 1.0, 'node:10.0.0.2': 0.001}]. Check `ray status` to see if you have enough resources. [repeated 8x across cluster]";

describe('distributed setups that cannot go on', () => {
  it('a log that ends waiting for a Ray placement group asks for more GPUs than Ray can place', () => {
    const result = diagnoseLines('auto', [wait]);
    expect(result.class).toBe('invalid-value');
    expect(result.summary).toContain('Ray waits for GPUs');
  });

  it('a wait that ended (the weights then load) is not the cause', () => {
    const result = diagnoseLines('vllm', [
      'INFO 01-14 15:48:40 api_server.py:712] vLLM API server version 0.6.4',
      wait,
      'INFO 01-14 15:49:10 model_runner.py:1072] Starting to load model /models/m...',
    ]);
    expect(result.class).toBe('hang');
  });

  it("reads 0.6's world size that does not match the parallel sizes as a setting", () => {
    const result = diagnoseLines('auto', [
      'RuntimeError: world_size (8) is not equal to tensor_model_parallel_size (1) x pipeline_model_parallel_size (1). ',
    ]);
    expect(result.class).toBe('invalid-value');
    expect(result.summary).toContain('world size 8');
  });

  it("reads torch's store that cannot listen on its port as a port in use, also where a page cut the reason", () => {
    for (const line of [
      'RuntimeError: The server socket has failed to listen on any local network address. port: 46571, useIpv6: 0, code: -9',
      'torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. port: 29500, useIpv6: 0, code: -98, name: EADDRINUSE, message: address already in use',
    ]) {
      const result = diagnoseLines('auto', [line]);
      expect(result.class).toBe('port-in-use');
    }
  });

  it('reads a node Ray shows no accelerator, and a cluster short of GPUs in older words, as settings Ray cannot place', () => {
    for (const line of [
      "ValueError: Current node has no TPU available. current_node_resource={'CPU': 118.0, 'accelerator_type:TPU-V4': 1.0}. vLLM engine cannot start without TPU.",
      'ValueError: The number of required GPUs exceeds the total number of available GPUs in the cluster.',
    ])
      expect(diagnoseLines('auto', [line]).class).toBe('invalid-value');
  });

  it('reads a process that sees no GPU as no device found', () => {
    const result = diagnoseLines('auto', [
      '(_MapWorker pid=13019) ERROR 03-07 05:56:27 worker_base.py:581] RuntimeError: No CUDA GPUs are available',
    ]);
    expect(result.class).toBe('dependency');
    expect(result.summary).toContain('sees no GPU');
  });
});
