import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ProtocolError, ResponseParser } from '../../src/bench/http1-response.ts';
import { sendCompletion } from '../../src/bench/request.ts';
import { createSocketTransport } from '../../src/bench/socket-transport.ts';
import { TransportError, type Transport } from '../../src/bench/transport.ts';

// Feeds `bytes` to a parser in the given pieces and returns what it reported.
const parse = (bytes: Buffer, cuts: number[] = []) => {
  const seen = { status: 0, type: '', body: [] as Buffer[], ends: [] as boolean[] };
  const parser = new ResponseParser({
    head: (status, type) => {
      seen.status = status;
      seen.type = type;
    },
    data: (chunk) => seen.body.push(Buffer.from(chunk)),
    end: (reusable) => seen.ends.push(reusable),
  });
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    parser.feed(bytes.subarray(from, cut));
    from = cut;
  }
  return { ...seen, text: Buffer.concat(seen.body).toString('utf8'), parser };
};

const CHUNKED = Buffer.from(
  'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n' +
    '7\r\ndata: a\r\n' +
    'b;ext=1\r\n\n\ndata: é\n\r\n' +
    '0\r\nx-trailer: yes\r\n\r\n',
  'utf8',
);
const CHUNKED_BODY = 'data: a\n\ndata: é\n';

describe('ResponseParser', () => {
  it('reads a chunked body split at every byte boundary, extensions and trailers included', () => {
    for (let cut = 0; cut <= CHUNKED.length; cut++) {
      const r = parse(CHUNKED, [cut]);
      expect(r.text, `cut at ${String(cut)}`).toBe(CHUNKED_BODY);
      expect(r.status).toBe(200);
      expect(r.type).toBe('text/event-stream');
      expect(r.ends).toEqual([true]);
    }
    const bytewise = parse(
      CHUNKED,
      Array.from({ length: CHUNKED.length }, (_, i) => i),
    );
    expect(bytewise.text).toBe(CHUNKED_BODY);
    expect(bytewise.ends).toEqual([true]);
  });

  it('reads a Content-Length body split anywhere, and nothing past it', () => {
    const bytes = Buffer.from(
      'HTTP/1.1 500 Internal Server Error\r\nContent-Length: 5\r\n\r\nboom!',
      'latin1',
    );
    for (let cut = 0; cut <= bytes.length; cut++) {
      const r = parse(bytes, [cut]);
      expect(r.status).toBe(500);
      expect(r.text).toBe('boom!');
      expect(r.ends).toEqual([true]);
    }
  });

  it('skips an interim 100 Continue, and ends bodiless 204s at once', () => {
    const r = parse(Buffer.from('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n'));
    expect(r.status).toBe(204);
    expect(r.ends).toEqual([true]);
  });

  it('says a connection that closes is not reusable, and reads a body that runs to the close', () => {
    expect(
      parse(Buffer.from('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')).ends,
    ).toEqual([false]);
    expect(parse(Buffer.from('HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n')).ends).toEqual([false]);
    const open = parse(Buffer.from('HTTP/1.1 200 OK\r\n\r\nall of it'));
    expect(open.ends).toEqual([]);
    expect(open.parser.close()).toBe(true);
    expect(open.text).toBe('all of it');
    expect(open.ends).toEqual([false]);
  });

  it('reports a cut: close() before the end of a framed body is false', () => {
    const r = parse(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'));
    expect(r.parser.started).toBe(true);
    expect(r.parser.close()).toBe(false);
  });

  it('refuses what is not HTTP/1.x', () => {
    expect(() => parse(Buffer.from('SSH-2.0-OpenSSH_9.6\r\n\r\n'))).toThrow(ProtocolError);
    expect(() => parse(Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'))).toThrow(
      /bad chunk size/,
    );
    expect(() => parse(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n'))).toThrow(
      /bad content-length/,
    );
  });
});

const closers: (() => Promise<void>)[] = [];
const transports: Transport[] = [];
afterEach(async () => {
  for (const t of transports.splice(0)) t.close();
  await Promise.all(closers.splice(0).map((close) => close()));
});

const transport = (maxSockets?: number): Transport => {
  const t = createSocketTransport(maxSockets === undefined ? {} : { maxSockets });
  transports.push(t);
  return t;
};

// A raw TCP server whose answers are written byte for byte by `handle`; counts connections.
const rawServer = async (handle: (socket: Socket, request: string) => void) => {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let pending = '';
    socket.on('data', (chunk) => {
      pending += chunk.toString('latin1');
      const end = pending.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(pending.slice(0, end))?.[1] ?? 0);
      if (pending.length < end + 4 + length) return;
      const request = pending.slice(0, end + 4 + length);
      pending = pending.slice(end + 4 + length);
      handle(socket, request);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => {
          resolve();
        });
      }),
  );
  return {
    url: new URL(`http://127.0.0.1:${String((server.address() as AddressInfo).port)}/v1/x`),
    connections: () => connections,
  };
};

// Sends one request and collects its answer.
const fetchText = async (
  t: Transport,
  url: URL,
  extra: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<{ status: number; body: string }> => {
  let status = 0;
  const chunks: Buffer[] = [];
  await t.send(
    { method: 'POST', url, headers: { 'content-type': 'application/json' }, body: '{"a":"é"}', ...extra },
    {
      head: (code) => {
        status = code;
      },
      data: (chunk) => chunks.push(chunk),
    },
  );
  return { status, body: Buffer.concat(chunks).toString('utf8') };
};

const failure = async (promise: Promise<unknown>): Promise<TransportError> => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof TransportError) return error;
    throw error;
  }
  throw new Error('the request succeeded');
};

describe('the socket transport', () => {
  it('sends the request whole (UTF-8 body, content-length in bytes) and reuses one connection', async () => {
    const seen: string[] = [];
    const server = await rawServer((socket, request) => {
      seen.push(request);
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
    });
    const t = transport();
    for (let i = 0; i < 5; i++) expect(await fetchText(t, server.url)).toEqual({ status: 200, body: 'ok' });
    expect(server.connections()).toBe(1);
    expect(seen[0]).toMatch(/^POST \/v1\/x HTTP\/1\.1\r\nhost: 127\.0\.0\.1:\d+\r\n/);
    expect(seen[0]).toContain('content-length: 10\r\n');
    expect(
      Buffer.from(seen[0] ?? '', 'latin1')
        .toString('utf8')
        .endsWith('\r\n\r\n{"a":"é"}'),
    ).toBe(true);
  });

  it('streams a chunked body to the sink piece by piece, split across writes', async () => {
    const server = await rawServer((socket) => {
      socket.write(CHUNKED.subarray(0, 50));
      setTimeout(() => socket.write(CHUNKED.subarray(50, 90)), 10);
      setTimeout(() => socket.write(CHUNKED.subarray(90)), 20);
    });
    expect(await fetchText(transport(), server.url)).toEqual({ status: 200, body: CHUNKED_BODY });
  });

  it('opens a new connection after Connection: close, and after the server closed an idle one', async () => {
    let n = 0;
    const server = await rawServer((socket) => {
      n++;
      if (n === 1) socket.end('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\na');
      else {
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nb');
        // The server's keep-alive timeout: it closes the idle connection.
        setTimeout(() => socket.end(), 10);
      }
    });
    const t = transport();
    expect((await fetchText(t, server.url)).body).toBe('a');
    expect((await fetchText(t, server.url)).body).toBe('b');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await fetchText(t, server.url)).body).toBe('b');
    expect(server.connections()).toBe(3);
  });

  it('keeps to maxSockets and queues the rest', async () => {
    const server = await rawServer((socket) => {
      setTimeout(() => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nq'), 20);
    });
    const t = transport(2);
    const answers = await Promise.all(Array.from({ length: 6 }, () => fetchText(t, server.url)));
    expect(answers.map((a) => a.body).join('')).toBe('qqqqqq');
    expect(server.connections()).toBe(2);
  });

  it('a server that closes mid-body cuts the stream; one that closes before answering is a connection error', async () => {
    const cut = await rawServer((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial');
      setTimeout(() => socket.destroy(), 10);
    });
    const midBody = await failure(fetchText(transport(), cut.url));
    expect(midBody.kind).toBe('stream_cut');
    const silent = await rawServer((socket) => {
      socket.destroy();
    });
    expect((await failure(fetchText(transport(), silent.url))).kind).toBe('connection');
    const garbage = await rawServer((socket) => {
      socket.write('SSH-2.0-OpenSSH_9.6\r\n\r\n');
    });
    expect((await failure(fetchText(transport(), garbage.url))).kind).toBe('connection');
  });

  it('a chunked SSE stream cut mid-way is a stream_cut request error, with the text so far', async () => {
    const server = await rawServer((socket) => {
      socket.write(
        'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n',
      );
      const event = `data: ${JSON.stringify({ choices: [{ delta: { content: 'hi' } }] })}\n\n`;
      socket.write(`${Buffer.byteLength(event).toString(16)}\r\n${event}\r\n`);
      setTimeout(() => socket.destroy(), 20);
    });
    const result = await sendCompletion(transport(), {
      baseUrl: new URL(server.url.origin),
      model: 'm',
      prompt: { messages: [{ role: 'user', content: 'x' }], maxTokens: 4 },
      stream: true,
      timeoutMs: 10_000,
      keepText: true,
    });
    expect(result.error?.kind).toBe('stream_cut');
    expect(result.text).toBe('hi');
  });

  it('a 500 with a body keeps the connection for the next request', async () => {
    const server = await rawServer((socket) => {
      socket.write('HTTP/1.1 500 Internal Server Error\r\nContent-Length: 16\r\n\r\n{"error":"boom"}');
    });
    const t = transport();
    expect(await fetchText(t, server.url)).toEqual({ status: 500, body: '{"error":"boom"}' });
    expect(await fetchText(t, server.url)).toEqual({ status: 500, body: '{"error":"boom"}' });
    expect(server.connections()).toBe(1);
  });

  it('times out a request that gets no answer, and aborts one on its signal, closing the connection', async () => {
    const server = await rawServer(() => undefined);
    const t = transport();
    const timedOut = await failure(fetchText(t, server.url, { timeoutMs: 100 }));
    expect(timedOut.kind).toBe('timeout');
    const controller = new AbortController();
    setTimeout(() => {
      controller.abort();
    }, 50);
    expect((await failure(fetchText(t, server.url, { signal: controller.signal }))).kind).toBe('aborted');
    expect((await failure(fetchText(t, server.url, { signal: controller.signal }))).kind).toBe('aborted');
    expect(server.connections()).toBe(2);
  });

  it('talks to node:http servers, keep-alive included', async () => {
    let connections = 0;
    const server: HttpServer = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => res.end(JSON.stringify({ url: req.url })));
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(
      () =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(() => {
            resolve();
          });
        }),
    );
    const url = new URL(`http://127.0.0.1:${String((server.address() as AddressInfo).port)}/v1/models?x=1`);
    const t = transport();
    for (let i = 0; i < 3; i++)
      expect(await fetchText(t, url)).toEqual({ status: 200, body: '{"url":"/v1/models?x=1"}' });
    expect(connections).toBe(1);
  });
});
