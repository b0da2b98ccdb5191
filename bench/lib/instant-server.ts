// A server that answers at once: /v1/models, and /v1/chat/completions as JSON or as a stream of max_tokens
// one-token chunks written in one go, with usage. It prints its port on stdout once listening. The client
// benchmark runs it in its own process, pinned to its own core, so the client's ceiling is what is measured.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const MODELS = JSON.stringify({ object: 'list', data: [{ id: 'instant', object: 'model' }] });
const head = { id: 'chatcmpl-instant', object: 'chat.completion.chunk', created: 0, model: 'instant' };

const streamBody = (tokens: number): string => {
  let text = '';
  for (let i = 0; i < tokens; i++)
    text += `data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta: { content: ' x' }, finish_reason: null }] })}\n\n`;
  text += `data: ${JSON.stringify({ ...head, choices: [], usage: { prompt_tokens: 8, completion_tokens: tokens, total_tokens: tokens + 8 } })}\n\n`;
  return `${text}data: [DONE]\n\n`;
};
const streams = new Map<number, string>();

const server = createServer((req, res) => {
  if (req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(MODELS) });
    res.end(MODELS);
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
      stream?: boolean;
      max_tokens?: number;
    };
    const tokens = body.max_tokens ?? 16;
    if (body.stream === true) {
      let text = streams.get(tokens);
      if (text === undefined) streams.set(tokens, (text = streamBody(tokens)));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(text);
      return;
    }
    const reply = JSON.stringify({
      id: 'chatcmpl-instant',
      object: 'chat.completion',
      model: 'instant',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'x'.repeat(tokens) }, finish_reason: 'length' },
      ],
      usage: { prompt_tokens: 8, completion_tokens: tokens, total_tokens: tokens + 8 },
    });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(reply) });
    res.end(reply);
  });
});
server.keepAliveTimeout = 120_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${String((server.address() as AddressInfo).port)}\n`);
});
