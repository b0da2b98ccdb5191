// Failure signatures shared by every engine: a port the server needs is taken.
import type { Signature } from '../facts.ts';

export const PORT_SIGNATURES: readonly Signature[] = [
  // --- port-in-use.
  {
    id: 'addr-in-use',
    class: 'port-in-use',
    weight: 100,
    // A server that cannot bind never serves: a ready line after it is another server's answer on that port (SGLang's
    // warm-up reaching whatever holds it).
    endsStart: true,
    needles: ['already in use', 'Errno 98', 'errno: 98', 'EADDRINUSE', 'already allocated', 'bound already'],
    // Docker publishing a container's port words it its own way: `Bind for 0.0.0.0:9001 failed: port is already
    // allocated`; Ascend's HCCL its listening port: `Failed to bind the IP port. Reason: The IP address and port have
    // been bound already.` (then `host nic listen start failed, port[60000]`).
    // Not a port the server then replaces (SGLang's `Port 30000 is already in use, trying port 30001`, vLLM's
    // `Address already in use. Retrying with a new port.`): that start goes on.
    pattern:
      /^(?!.*\b(?:trying port \d|[Rr]etrying with a new port)).*?(?:[Aa]ddress already in use|\[Errno 98\]|errno: 98|EADDRINUSE|Bind for \S+ failed: port is already allocated|\b\w*[Pp]ort\w* \d+ is already in use|address and port have been bound already)/,
    samples: [
      'EJ0003: [PID: 159] 2025-03-26-17:01:02.816.428 Failed to bind the IP port. Reason: The IP address and port have been bound already.',
      'Error response from daemon: driver failed programming external connectivity on endpoint server: Bind for 0.0.0.0:9001 failed: port is already allocated',
      'RuntimeError: engine_info_bootstrap_port 8998 is already in use. When running multiple instances on the same node, each instance must use a different --engine-info-bootstrap-port.',
    ],
    facts: (m) => {
      if (m.input.includes('bound already')) return { port: '', kind: 'collective-port' };
      const port =
        /Bind for \S+:(\d+) failed/.exec(m.input) ??
        /bind on address \('[^']*', (\d+)\)/.exec(m.input) ??
        /bind to \[?[\w.:]*\]?:(\d+)/.exec(m.input) ??
        /[Pp]ort\w* (\d+) is already in use/.exec(m.input) ??
        /[Pp]ort (\d+)/.exec(m.input);
      return { port: port?.[1] ?? '' };
    },
    summary: (f) =>
      f.port === '' || f.port === undefined
        ? f.kind === 'collective-port'
          ? "the collective library (Ascend's HCCL) could not listen on its port: another process on this host holds it"
          : 'a port the server needs is already in use'
        : `port ${f.port} is already in use`,
  },
  {
    // torch.distributed's store (the rendezvous every multi-process start opens) could not bind its port: another
    // process holds it (the message ends `… name: EADDRINUSE` when the page did not cut it).
    id: 'store-listen-failed',
    class: 'port-in-use',
    weight: 96,
    needles: ['failed to listen on any local network address'],
    pattern:
      /The server socket has failed to listen on any local network address\.?(?: (?:port|useIpv6): (\d+))?/,
    samples: [
      'RuntimeError: The server socket has failed to listen on any local network address. port: 46571, useIpv6: 0, code: -98, name: EADDRINUSE, message: address already in use',
      'torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. port: 29500, useIpv6: 0, code: -9',
    ],
    facts: (m) => (m[1] === undefined ? {} : { port: m[1] }),
    summary: (f) =>
      `torch.distributed's store could not listen on its port${f.port === undefined ? '' : ` ${f.port}`}: another process (often another server or job on this host) holds it`,
  },
];
