// One OpenAI-compatible completion, streamed or not, timed from the moment it is sent: TTFT (first chunk with
// text), the gaps between text chunks (ITL), end-to-end time, and token counts from the server's `usage` only.
import { StringDecoder } from 'node:string_decoder';
import { createParser, type EventSourceParser } from 'eventsource-parser';
import { TransportError, type Transport } from './transport.ts';

export type ChatMessage = { role: string; content: string };

/** What to send: chat messages go to /v1/chat/completions, a prompt to /v1/completions. */
export interface Prompt {
  messages?: ChatMessage[];
  prompt?: string;
  maxTokens: number;
}

export interface RequestSpec {
  baseUrl: URL;
  model: string;
  prompt: Prompt;
  stream: boolean;
  timeoutMs: number;
  headers?: Record<string, string>;
  /** Keep the answer's text (smoke tests check it; the load generator does not need it). */
  keepText?: boolean;
  signal?: AbortSignal;
}

/** Why a request failed: `http_<status>`, timeout, stream_cut, bad_json, connection, no_usage, aborted. */
export type ErrorKind = string;

export interface RequestError {
  kind: ErrorKind;
  message: string;
  status: number | null;
  /** The start of the response body, for evidence (callers redact it). */
  excerpt: string | null;
}

export interface RequestResult {
  error: RequestError | null;
  /** performance.now() when the request was sent. */
  sentAt: number;
  ttftMs: number | null;
  e2eMs: number;
  /** Gaps between consecutive text chunks, in ms. */
  gaps: number[];
  textChunks: number;
  promptTokens: number | null;
  completionTokens: number | null;
  finishReason: string | null;
  text: string;
}

const EXCERPT = 500;

interface Choice {
  delta?: { content?: unknown };
  message?: { content?: unknown };
  text?: unknown;
  finish_reason?: unknown;
}
interface Completion {
  choices?: Choice[];
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } | null;
}

const chunkText = (choice: Choice | undefined): string => {
  const value = choice?.delta?.content ?? choice?.message?.content ?? choice?.text;
  return typeof value === 'string' ? value : '';
};

// Endpoint URLs and request bodies are made once per base URL object and prompt, not once per request.
const endpoints = new WeakMap<URL, Map<string, URL>>();
const endpoint = (base: URL, path: string): URL => {
  let byPath = endpoints.get(base);
  if (byPath === undefined) endpoints.set(base, (byPath = new Map<string, URL>()));
  let url = byPath.get(path);
  if (url === undefined) {
    url = new URL(path, base.href.endsWith('/') ? base : `${base.href}/`);
    byPath.set(path, url);
  }
  return url;
};
const bodies = new WeakMap<Prompt, Map<string, string>>();

// The JSON body of the request (cached per prompt, model and streaming choice).
export const requestBody = (spec: RequestSpec): string => {
  const key = `${spec.model}\n${String(spec.stream)}`;
  let byKey = bodies.get(spec.prompt);
  if (byKey === undefined) bodies.set(spec.prompt, (byKey = new Map<string, string>()));
  let body = byKey.get(key);
  if (body === undefined) byKey.set(key, (body = buildBody(spec)));
  return body;
};

const buildBody = (spec: RequestSpec): string =>
  JSON.stringify({
    model: spec.model,
    ...(spec.prompt.messages === undefined
      ? { prompt: spec.prompt.prompt ?? '' }
      : { messages: spec.prompt.messages }),
    max_tokens: spec.prompt.maxTokens,
    ...(spec.stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  });

// The request headers, one object per (caller's headers, streaming choice): a stable object lets the socket
// transport reuse the request head it encoded for it.
const NO_HEADERS: Record<string, string> = {};
const headerSets = new WeakMap<Record<string, string>, [Record<string, string>, Record<string, string>]>();
const headersFor = (spec: RequestSpec): Record<string, string> => {
  const own = spec.headers ?? NO_HEADERS;
  let pair = headerSets.get(own);
  if (pair === undefined) {
    const make = (accept: string): Record<string, string> => ({
      'content-type': 'application/json',
      accept,
      ...own,
    });
    pair = [make('application/json'), make('text/event-stream')];
    headerSets.set(own, pair);
  }
  return pair[spec.stream ? 1 : 0];
};

// Sends one request and measures it; never throws (failures come back as `error`).
export const sendCompletion = async (transport: Transport, spec: RequestSpec): Promise<RequestResult> => {
  const path = spec.prompt.messages === undefined ? 'v1/completions' : 'v1/chat/completions';
  const url = endpoint(spec.baseUrl, path);
  const result: RequestResult = {
    error: null,
    sentAt: performance.now(),
    ttftMs: null,
    e2eMs: 0,
    gaps: [],
    textChunks: 0,
    promptTokens: null,
    completionTokens: null,
    finishReason: null,
    text: '',
  };
  let status = 0;
  let raw = '';
  const stream = { sawDone: false };
  let lastChunkAt = 0;
  const fail = (kind: ErrorKind, message: string): void => {
    result.error ??= {
      kind,
      message,
      status: status === 0 ? null : status,
      excerpt: raw.slice(0, EXCERPT) || null,
    };
  };
  const take = (completion: Completion, at: number): void => {
    const choice = completion.choices?.[0];
    const text = chunkText(choice);
    if (text !== '') {
      if (result.ttftMs === null) result.ttftMs = at - result.sentAt;
      else result.gaps.push(at - lastChunkAt);
      lastChunkAt = at;
      result.textChunks++;
      if (spec.keepText === true) result.text += text;
    }
    if (typeof choice?.finish_reason === 'string') result.finishReason = choice.finish_reason;
    const usage = completion.usage;
    if (usage !== null && usage !== undefined) {
      if (typeof usage.prompt_tokens === 'number') result.promptTokens = usage.prompt_tokens;
      if (typeof usage.completion_tokens === 'number') result.completionTokens = usage.completion_tokens;
    }
  };
  const newParser = (): EventSourceParser =>
    createParser({
      onEvent: (event) => {
        if (result.error !== null) return;
        if (event.data === '[DONE]') {
          stream.sawDone = true;
          return;
        }
        const at = performance.now();
        try {
          take(JSON.parse(event.data) as Completion, at);
        } catch {
          fail('bad_json', `a streamed event is not JSON: ${event.data.slice(0, 80)}`);
        }
      },
    });
  // A streamed body is decoded as it comes (a character may be split between chunks) and kept only as far as an
  // excerpt; any other body is kept whole and decoded once at its end.
  const sse: { decoder: StringDecoder | null; parser: EventSourceParser | null } = {
    decoder: null,
    parser: null,
  };
  const chunks: Buffer[] = [];
  try {
    await transport.send(
      {
        method: 'POST',
        url,
        headers: headersFor(spec),
        body: requestBody(spec),
        timeoutMs: spec.timeoutMs,
        ...(spec.signal === undefined ? {} : { signal: spec.signal }),
      },
      {
        head: (code) => {
          status = code;
          if (spec.stream && status === 200) {
            sse.decoder = new StringDecoder('utf8');
            sse.parser = newParser();
          }
        },
        data: (chunk) => {
          if (sse.decoder === null || sse.parser === null) {
            chunks.push(chunk);
            return;
          }
          const text = sse.decoder.write(chunk);
          sse.parser.feed(text);
          if (raw.length < EXCERPT) raw += text;
        },
      },
    );
    if (sse.decoder === null) raw = Buffer.concat(chunks).toString('utf8');
    result.e2eMs = performance.now() - result.sentAt;
    if (status !== 200) fail(`http_${String(status)}`, `the server answered HTTP ${String(status)}`);
    else if (spec.stream) {
      // Set in the parser's callback (a bad_json there wins over the missing [DONE]).
      if (!stream.sawDone) fail('stream_cut', 'the stream ended without data: [DONE]');
    } else {
      try {
        take(JSON.parse(raw) as Completion, performance.now());
        if (result.ttftMs !== null) result.ttftMs = result.e2eMs;
      } catch {
        fail('bad_json', 'the response body is not JSON');
      }
    }
    if (result.error === null && result.completionTokens === null)
      fail('no_usage', 'the response carries no usage counts (stream_options.include_usage not honoured)');
  } catch (error) {
    result.e2eMs = performance.now() - result.sentAt;
    if (sse.decoder === null) raw = Buffer.concat(chunks).toString('utf8');
    if (error instanceof TransportError && error.kind === 'timeout')
      fail('timeout', `no complete answer within ${String(spec.timeoutMs)} ms`);
    else if (error instanceof TransportError) fail(error.kind, error.message);
    else fail('connection', error instanceof Error ? error.message : String(error));
  }
  return result;
};
