// Failure signatures shared by every engine: distributed setup: NCCL, gloo, torch.distributed.
import type { Signature } from '../facts.ts';

export const DISTRIBUTED_SIGNATURES: readonly Signature[] = [
  // --- nccl / distributed.
  {
    id: 'nccl-error',
    class: 'nccl',
    weight: 85,
    needles: ['error', 'Error'],
    pattern:
      /NCCL [Ee]rror|HCCL function error|HCCL Error Code: \d+|Dist(?:Backend|Network)Error|nccl(?:System|Internal|InvalidUsage|Remote|UnhandledCuda|InvalidArgument)Error/,
    // Early pynccl wrappers spell it `NCCL Error 2: unhandled system error`; Ascend's transfer layers name HCCL's code
    // (`RuntimeError: Failed to register memory | HCCL Error Code: 19`).
    facts: (m) => ({ value: /NCCL [Ee]rror(?: in: \S+| \d+)?:? ([^(]+)/.exec(m.input)?.[1]?.trim() ?? '' }),
    summary: (f, c) =>
      `NCCL failed${c.phase === null ? '' : ` during ${c.phase}`}${f.value === '' || f.value === undefined ? '' : `: ${f.value}`}`,
  },
  {
    // The collective libraries of other accelerators: Intel's oneCCL (`|CCL_ERROR| exchange_utils.cpp:202 sendmsg_fd:
    // … failed`) and Ascend's HCCL as torch_npu reports it (`ERR02200 DIST call hccl api failed.`).
    id: 'ccl-error',
    class: 'nccl',
    weight: 84,
    needles: ['CCL_ERROR', 'hccl api', 'EI0'],
    // HCCL's own errors carry an `EI` code: `Get_Socket_Timeout(EI0006): Getting socket times out. Reason: …`, or,
    // as CANN prints its error list, `EI0006: [PID: 15619] 2025-10-11-11:32:29.342.650 Getting socket times out.`.
    pattern:
      /\|CCL_ERROR\|\s*(.*)$|(DIST call hccl api failed)|\w+\((EI\d{4})\): ([^.]+)|\b(EI\d{4}): \[PID: \d+\] \S+ ([^.]+)/,
    samples: [
      '2024:09:13-11:21:50:(31157) |CCL_ERROR| exchange_utils.cpp:202 sendmsg_fd: condition !check_msg_retval("sendmsg", send_bytes, iov, msg, sizeof(u.cntr_buf), sock, fd) failed',
      '[ERROR] 2025-12-17-09:31:53 (PID:53769, Device:0, RankID:-1) ERR02200 DIST call hccl api failed.',
      '[PID: 749] 2025-12-29-03:16:15.787.356 Get_Socket_Timeout(EI0006): Getting socket times out. Reason: 1. The remote does not initiate a connect request.',
      'EI0006: [PID: 15619] 2025-10-11-11:32:29.342.650 Getting socket times out. Reason: Remote Rank did not send the data in time.',
    ],
    origin: 'dependency',
    facts: (m) => {
      const coded = m[4] ?? m[6];
      return {
        value: (m[1] ?? m[2] ?? (coded === undefined ? '' : `${coded} (${m[3] ?? m[5] ?? ''})`)).trim(),
      };
    },
    summary: (f) => `the accelerator's collective communication library failed: ${f.value ?? ''}`,
  },
  {
    // Two ranks given the same GPU (one CUDA_VISIBLE_DEVICES for every data-parallel rank, or more ranks than GPUs):
    // NCCL refuses to build the communicator. Printed at NCCL's WARN level, but never survived.
    id: 'nccl-duplicate-gpu',
    class: 'nccl',
    weight: 87,
    fatalAtAnyLevel: true,
    needles: ['Duplicate GPU'],
    pattern: /Duplicate GPU detected ?: rank (\d+) and rank (\d+) both on CUDA device (\w+)/,
    samples: [
      'node-07:2353883:2353883 [0] init.cc:943 NCCL WARN Duplicate GPU detected : rank 2 and rank 0 both on CUDA device f000',
    ],
    facts: (m) => ({
      value: `ranks ${m[1] ?? ''} and ${m[2] ?? ''} on CUDA device ${m[3] ?? ''}`,
      kind: 'duplicate-gpu',
    }),
    summary: (f) =>
      `two ranks were given the same GPU (${f.value ?? ''}): NCCL cannot build a communicator between them`,
  },
  {
    // NVSHMEM (GPU-initiated communication, under DeepEP's all-to-all) failing to set up between GPUs:
    // `topo.cpp:469: [GPU 1] Peer GPU 8 is not accessible, exiting ...`, `init.cu:1037: non-zero status: 3 building
    // transport map failed`. Its transports that fail and fall back (`init failed for transport: IBGDA`) are not this.
    id: 'nvshmem-error',
    class: 'nccl',
    weight: 85,
    // Also DeepEP's own check of an NVSHMEM call that set up its teams: `Failed: Assertion error …/runtime.cu:56
    // 'nvshmem_team_split_strided(…) == 0'`.
    needles: ['not accessible', 'non-zero status', "'nvshmem"],
    pattern:
      /nvshmem\S*\.(?:cpp|cu|c|h):\d+: (?:\[GPU \d+\] )?(Peer GPU \d+ is not accessible.*|non-zero status: -?\d+(?: .*)?)$|Failed: Assertion error \S+:\d+ '(nvshmem\w*)\(/,
    samples: [
      "RuntimeError: Failed: Assertion error /opt/DeepEP/csrc/kernels/runtime.cu:56 'nvshmem_team_split_strided(NVSHMEM_TEAM_WORLD, rank % NUM_MAX_NVL_PEERS, NUM_MAX_NVL_PEERS, num_ranks / NUM_MAX_NVL_PEERS, &cpu_rdma_team_config, 0, &cpu_rdma_team) == 0'",
      '/dvs/p4/build/sw/rel/gpgpu/toolkit/r13.0/main_nvshmem/src/host/topo/topo.cpp:469: [GPU 1] Peer GPU 8 is not accessible, exiting ... ',
      '/dvs/p4/build/sw/rel/gpgpu/toolkit/r13.0/main_nvshmem/src/host/init/init.cu:1037: non-zero status: 3 building transport map failed ',
      // Its InfiniBand transport's bare status (after `ibv_modify_qp failed`), as a page cut it.
      '/sgl-workspace/nvshmem/src/modules/transport/ibrc/ibrc.cpp:1433: non-zero status: 7',
    ],
    facts: (m) => ({ value: m[2] === undefined ? (m[1] ?? '').trim() : `${m[2]} failed` }),
    summary: (f) =>
      `NVSHMEM (GPU-to-GPU communication for expert parallelism) could not start: ${f.value ?? ''}`,
  },
  {
    // An InfiniBand verbs call that failed while a communicator set up its transport (NCCL's IB plugin registering
    // memory: `Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory`, often a locked-memory limit).
    id: 'ib-verbs-failed',
    class: 'nccl',
    weight: 84,
    needles: ['failed'],
    pattern: /\bCall to (ibv_\w+) failed with error (.+)$/,
    samples: ['Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory'],
    facts: (m) => ({ value: `${m[1] ?? ''}: ${(m[2] ?? '').trim()}` }),
    summary: (f) =>
      `an InfiniBand call failed while the ranks set up their communication (${f.value ?? ''}): check the RDMA devices and the locked-memory limit (ulimit -l) in the container`,
  },
  {
    id: 'nccl-warn',
    class: 'nccl',
    weight: 84,
    needles: ['NCCL WARN'],
    pattern: /NCCL WARN (.+)$/,
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) => `NCCL reported a failure: ${f.value ?? ''}`,
  },
  {
    id: 'gloo',
    class: 'nccl',
    weight: 84,
    needles: ['Gloo', 'gloo', 'monitoredBarrier', 'Timed out waiting'],
    pattern:
      /ProcessGroupGloo.*(?:error|failed|Timed out)|gloo\/transport\/\S+\] (.+)$|Gloo connectFullMesh failed|monitoredBarrier, but received errors|Timed out waiting \d+ms for (?:send|recv)/,
    facts: (m) => ({ value: (m[1] ?? m[0]).trim() }),
    summary: (f) => `the distributed (gloo) connection between ranks failed: ${f.value ?? ''}`,
  },
  {
    // A process group without a backend for the tensors' device (no gloo for CPU tensors): distributed setup broken.
    id: 'dist-no-backend',
    class: 'nccl',
    weight: 84,
    needles: ['No backend type'],
    pattern: /No backend type associated with device type (\w+)/,
    samples: ['RuntimeError: No backend type associated with device type cpu'],
    origin: 'dependency',
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) =>
      `torch.distributed has no backend for ${f.value ?? ''} tensors in the process group it was given (a group created without gloo for CPU, or without NCCL for GPU)`,
  },
  {
    // torch.distributed's rendezvous store: the other ranks (or nodes) never joined.
    id: 'dist-store',
    class: 'nccl',
    weight: 84,
    needles: [
      'DistStoreError',
      'waiting for clients',
      'client socket has',
      'TCP client failed',
      'waitForInput',
    ],
    pattern:
      /DistStoreError: (.+)$|Timed out after \d+ seconds waiting for clients\. (\d+\/\d+) clients joined|(?:^|\[c10d\] )(The client socket has timed out after \d+ms while trying to connect to .*|The client socket has failed to connect to .*\(errno: \d+ - .*\)|TCP client failed to connect\/validate to host \S+|waitForInput: socket .* timed out after \d+ms)/,
    samples: [
      'torch.distributed.DistStoreError: Timed out after 601 seconds waiting for clients. 1/4 clients joined.',
      '[c10d] The client socket has timed out after 600000ms while trying to connect to (node-05, 8000).',
      '[c10d] waitForInput: socket SocketImpl(fd=56) timed out after 1800000ms',
      '[c10d] The client socket has failed to connect to [localhost]:29500 (errno: 99 - Cannot assign requested address).',
    ],
    facts: (m) => ({ value: (m[1] ?? m[3] ?? m[0]).trim() }),
    summary: (f) =>
      `the ranks never all met at torch.distributed's rendezvous: ${f.value ?? ''} (another node or rank did not start, or cannot reach the master address)`,
  },
  {
    // Peer-to-peer access between GPUs is needed by the custom all-reduce kernel; some topologies lack it.
    id: 'p2p-unsupported',
    class: 'nccl',
    weight: 86,
    needles: ['peer access'],
    pattern: /peer access is not supported between these two devices/,
    samples: [
      "Failed: Cuda error /work/csrc/custom_all_reduce.cuh:307 'peer access is not supported between these two devices'",
    ],
    facts: () => ({ kind: 'p2p' }),
    summary: () =>
      'the GPUs cannot reach each other directly (no peer-to-peer access), which the custom all-reduce kernel needs',
  },
  {
    id: 'collective-timeout',
    class: 'nccl',
    weight: 84,
    needles: ['ollective operation timeout'],
    pattern: /[Cc]ollective operation timeout/,
    summary: () =>
      'a collective operation between ranks timed out (a rank hung or the network between ranks failed)',
  },
];
