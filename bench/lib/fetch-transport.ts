// The same Transport over Node's global fetch, measured against node:http's keep-alive pool by the client
// benchmark (which is why the product uses node:http).
import { TransportError, type Transport } from '../../src/bench/transport.ts';

export const createFetchTransport = (): Transport => ({
  send: async (request, sink) => {
    let response: Response;
    try {
      response = await fetch(request.url, {
        method: request.method,
        ...(request.headers === undefined ? {} : { headers: request.headers }),
        ...(request.body === undefined ? {} : { body: request.body }),
        ...(request.signal === undefined ? {} : { signal: request.signal }),
      });
    } catch (error) {
      throw new TransportError('connection', error instanceof Error ? error.message : String(error));
    }
    sink.head(response.status, response.headers.get('content-type') ?? '');
    if (response.body === null) return;
    try {
      for await (const chunk of response.body) sink.data(Buffer.from(chunk as Uint8Array));
    } catch {
      throw new TransportError('stream_cut', 'the connection closed before the response ended');
    }
  },
  close: () => undefined,
});
