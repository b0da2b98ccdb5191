// The same Transport over Node's global fetch, measured against node:http's keep-alive pool by the client
// benchmark (which is why the product uses node:http).
import { TransportError, type Transport } from '../../src/bench/transport.ts';

export const createFetchTransport = (): Transport => ({
  send: async (request, sink) => {
    let response: Response;
    const signals = [
      ...(request.signal === undefined ? [] : [request.signal]),
      ...(request.timeoutMs === undefined ? [] : [AbortSignal.timeout(request.timeoutMs)]),
    ];
    const signal = signals.length === 0 ? undefined : AbortSignal.any(signals);
    const kind = (): 'timeout' | 'aborted' | null =>
      signal?.aborted !== true ? null : request.signal?.aborted === true ? 'aborted' : 'timeout';
    try {
      response = await fetch(request.url, {
        method: request.method,
        ...(request.headers === undefined ? {} : { headers: request.headers }),
        ...(request.body === undefined ? {} : { body: request.body }),
        ...(signal === undefined ? {} : { signal }),
      });
    } catch (error) {
      throw new TransportError(
        kind() ?? 'connection',
        error instanceof Error ? error.message : String(error),
      );
    }
    sink.head(response.status, response.headers.get('content-type') ?? '');
    if (response.body === null) return;
    try {
      for await (const chunk of response.body) sink.data(Buffer.from(chunk as Uint8Array));
    } catch {
      throw new TransportError(kind() ?? 'stream_cut', 'the connection closed before the response ended');
    }
  },
  close: () => undefined,
});
