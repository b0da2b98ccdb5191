// The Transport over undici 7 (the last major that runs on Node 20), through its lowest-level `dispatch` API and a
// keep-alive Agent: measured by the client benchmark beside the product's own socket transport.
import { Agent } from 'undici';
import { TransportError, type Transport } from '../../src/bench/transport.ts';

export const createUndiciTransport = (options: { connections: number }): Transport => {
  const agent = new Agent({ connections: options.connections, pipelining: 1 });
  return {
    send: (request, sink) =>
      new Promise<void>((resolve, reject) => {
        let started = false;
        let timedOut = false;
        let controller: { abort(reason: Error): void } | null = null;
        const onAbort = (): void => {
          controller?.abort(new Error('aborted'));
        };
        request.signal?.addEventListener('abort', onAbort, { once: true });
        const timer =
          request.timeoutMs === undefined
            ? null
            : setTimeout(() => {
                timedOut = true;
                onAbort();
              }, request.timeoutMs);
        const done = (error?: TransportError): void => {
          if (timer !== null) clearTimeout(timer);
          request.signal?.removeEventListener('abort', onAbort);
          if (error === undefined) resolve();
          else reject(error);
        };
        agent.dispatch(
          {
            origin: request.url.origin,
            path: `${request.url.pathname}${request.url.search}`,
            method: request.method,
            headers: request.headers ?? {},
            body: request.body ?? null,
          },
          {
            onRequestStart: (c) => {
              controller = c;
            },
            onResponseStart: (_c, status, headers) => {
              started = true;
              const type = headers['content-type'];
              sink.head(status, typeof type === 'string' ? type : '');
            },
            onResponseData: (_c, chunk) => {
              sink.data(chunk);
            },
            onResponseEnd: () => {
              done();
            },
            onResponseError: (_c, error) => {
              done(
                new TransportError(
                  timedOut
                    ? 'timeout'
                    : request.signal?.aborted === true
                      ? 'aborted'
                      : started
                        ? 'stream_cut'
                        : 'connection',
                  error.message,
                ),
              );
            },
          },
        );
      }),
    close: () => {
      void agent.close();
    },
  };
};
