import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendCompletion, type RequestSpec } from '../../src/bench/request.ts';
import { createSocketTransport } from '../../src/bench/socket-transport.ts';
import { createHttpTransport, type Transport } from '../../src/bench/transport.ts';

const servers: Server[] = [];
const transports: Transport[] = [];
afterEach(async () => {
  for (const t of transports.splice(0)) t.close();
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise((resolve) => {
          s.closeAllConnections();
          s.close(resolve);
        }),
    ),
  );
});

const event = (content: string | null, usage?: unknown): string =>
  `data: ${JSON.stringify({
    choices: content === null ? [] : [{ index: 0, delta: { content }, finish_reason: null }],
    ...(usage === undefined ? {} : { usage }),
  })}\n\n`;

const BODY =
  event('') +
  event('Hé') +
  event(' wörld') +
  event('!') +
  event(null, { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 }) +
  'data: [DONE]\n\n';

// A transport that hands a fixed body over in the given pieces, as a network might cut it.
const pieces = (body: Buffer, cuts: number[]): Transport => ({
  send: (_request, sink) => {
    sink.head(200, 'text/event-stream');
    let from = 0;
    for (const cut of [...cuts, body.length]) {
      sink.data(body.subarray(from, cut));
      from = cut;
    }
    return Promise.resolve();
  },
  close: () => undefined,
});

const spec = (url = 'http://127.0.0.1:9', overrides: Partial<RequestSpec> = {}): RequestSpec => ({
  baseUrl: new URL(url),
  model: 'm',
  prompt: { messages: [{ role: 'user', content: 'hi' }], maxTokens: 3 },
  stream: true,
  timeoutMs: 10_000,
  keepText: true,
  ...overrides,
});

describe('streamed responses cut anywhere', () => {
  it('parses the same events whatever byte the chunks break at, multi-byte characters included', async () => {
    const body = Buffer.from(BODY, 'utf8');
    for (let cut = 1; cut < body.length; cut++) {
      for (const second of [cut + 1, cut + 7]) {
        const cuts = second < body.length ? [cut, second] : [cut];
        const result = await sendCompletion(pieces(body, cuts), spec());
        expect(result.error, `cut at ${String(cuts)}`).toBeNull();
        expect(result.text).toBe('Hé wörld!');
        expect(result.textChunks).toBe(3);
        expect(result.gaps).toHaveLength(2);
        expect(result.completionTokens).toBe(3);
        expect(result.promptTokens).toBe(5);
      }
    }
  });

  it.each(KINDS)('reads events split one byte at a time over a real connection (%s)', async (_name, make) => {
    makeTransport = make;
    const url = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const bytes = Buffer.from(BODY, 'utf8');
      let i = 0;
      const next = (): void => {
        if (i === bytes.length) {
          res.end();
          return;
        }
        res.write(bytes.subarray(i, i + 1));
        i++;
        setImmediate(next);
      };
      next();
    });
    const result = await sendCompletion(transport(), spec(url));
    expect(result.error).toBeNull();
    expect(result.text).toBe('Hé wörld!');
    expect(result.completionTokens).toBe(3);
  });
});

const serve = async (handle: (res: ServerResponse) => void): Promise<string> => {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      handle(res);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
};

// Real-connection tests run over both transports: raw sockets (http://) and node:http (https://).
const KINDS = [
  ['socket transport', createSocketTransport],
  ['node:http transport', createHttpTransport],
] as const;
let makeTransport: () => Transport = createSocketTransport;
const transport = (): Transport => {
  const t = makeTransport();
  transports.push(t);
  return t;
};

describe.each(KINDS)('failed requests, by kind, over the %s', (_name, make) => {
  beforeEach(() => {
    makeTransport = make;
  });

  it('an HTTP error keeps its status and the start of its body', async () => {
    const url = await serve((res) => {
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error": "boom"}');
    });
    const result = await sendCompletion(transport(), spec(url));
    expect(result.error).toMatchObject({ kind: 'http_500', status: 500, excerpt: '{"error": "boom"}' });
  });

  it('a connection dropped mid-stream is a stream cut', async () => {
    const url = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(event('one'));
      setTimeout(() => res.socket?.destroy(), 30);
    });
    const result = await sendCompletion(transport(), spec(url));
    expect(result.error?.kind).toBe('stream_cut');
    expect(result.ttftMs).not.toBeNull();
  });

  it('a stream that ends cleanly without [DONE] is a stream cut too', async () => {
    const url = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(event('one'));
    });
    expect((await sendCompletion(transport(), spec(url))).error?.kind).toBe('stream_cut');
  });

  it('a stream that stalls mid-way times out', async () => {
    const url = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(event('one'));
    });
    const result = await sendCompletion(transport(), spec(url, { timeoutMs: 300 }));
    expect(result.error?.kind).toBe('timeout');
    expect(result.e2eMs).toBeGreaterThanOrEqual(290);
  });

  it('an event that is not JSON is bad_json', async () => {
    const url = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`${event('one')}data: {not json\n\ndata: [DONE]\n\n`);
    });
    expect((await sendCompletion(transport(), spec(url))).error?.kind).toBe('bad_json');
  });

  it('a stream without usage is no_usage: token counts are never guessed', async () => {
    const url = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`${event('one')}data: [DONE]\n\n`);
    });
    expect((await sendCompletion(transport(), spec(url))).error?.kind).toBe('no_usage');
  });

  it('a refused connection is a connection error', async () => {
    const url = await serve(() => undefined);
    const server = servers.pop();
    await new Promise((resolve) => server?.close(resolve));
    expect((await sendCompletion(transport(), spec(url))).error?.kind).toBe('connection');
  });
});
