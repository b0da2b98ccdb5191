// An OpenAI-compatible server with deliberate timing: the first token of a streamed chat completion `ttftMs`
// after the request arrives, then one token every `itlMs`. Each token is due at an absolute time from the
// arrival, so a late timer delays that token only, never the ones after it; but never sooner than `itlMs` after
// the one before, so a process stalled for a while (a busy machine) does not send the tokens it owes in one burst,
// which a client would rightly measure as gaps near 0. Tests run it in their own process
// beside an in-process `vigil bench`: one event loop then wakes for each token, not two processes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// Calls `fn` once performance.now() reaches `due`. A timer alone fires up to a millisecond late (it counts whole
// milliseconds from the loop's cached clock), so it wakes 2 ms early and the rest is waited out with
// setImmediate, which keeps the event loop (and the client's reads in this process) turning meanwhile.
const at = (due: number, fn: () => void): void => {
  const check = (): void => {
    if (performance.now() >= due) fn();
    else setImmediate(check);
  };
  const wait = due - performance.now() - 2;
  if (wait > 0) setTimeout(check, wait);
  else check();
};

export interface TimedServer {
  url: string;
  close(): Promise<void>;
}

export const startTimedServer = async (ttftMs = 200, itlMs = 20): Promise<TimedServer> => {
  const server: Server = createServer((req, res) => {
    const arrived = performance.now();
    if (req.method === 'GET' && req.url === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'timed', object: 'model' }] }));
      return;
    }
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { max_tokens?: number };
      const tokens = body.max_tokens ?? 16;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const send = (data: unknown): void => {
        res.write(`data: ${JSON.stringify(data)}\n\n`);
      };
      const head = { id: 'chatcmpl-timed', object: 'chat.completion.chunk', created: 0, model: 'timed' };
      send({
        ...head,
        choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
      });
      let i = 0;
      const next = (): void => {
        if (i === tokens) {
          send({ ...head, choices: [{ index: 0, delta: {}, finish_reason: 'length' }] });
          send({
            ...head,
            choices: [],
            usage: { prompt_tokens: 12, completion_tokens: tokens, total_tokens: tokens + 12 },
          });
          res.end('data: [DONE]\n\n');
          return;
        }
        send({ ...head, choices: [{ index: 0, delta: { content: ` t${String(i)}` }, finish_reason: null }] });
        const sent = performance.now();
        i++;
        at(Math.max(arrived + ttftMs + i * itlMs, sent + itlMs), next);
      };
      at(arrived + ttftMs, next);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
};
