// The transport vigil bench and vigil smoke use unless given one: raw keep-alive sockets for http:// (the fast
// path, src/bench/socket-transport.ts), node:https for https:// (TLS is rare against a local inference server, and
// node:https handles certificates and ALPN properly).
import { createSocketTransport } from './socket-transport.ts';
import { createHttpTransport, type Transport } from './transport.ts';

export const createDefaultTransport = (options: { maxSockets?: number } = {}): Transport => {
  const plain = createSocketTransport(options);
  const tls = createHttpTransport(options);
  return {
    send: (request, sink) =>
      request.url.protocol === 'https:' ? tls.send(request, sink) : plain.send(request, sink),
    close: () => {
      plain.close();
      tls.close();
    },
  };
};
