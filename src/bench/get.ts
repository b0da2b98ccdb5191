// A bounded GET through a transport, body as text: model lists, /server_info, /metrics, health paths.
import type { Transport } from './transport.ts';

export interface GetResult {
  status: number;
  body: string;
  ms: number;
}

// Resolves with the answer; rejects with a TransportError (`timeout` when `timeoutMs` passes).
export const getText = async (
  transport: Transport,
  url: URL,
  timeoutMs: number,
  headers: Record<string, string> = {},
): Promise<GetResult> => {
  const started = performance.now();
  let status = 0;
  const chunks: Buffer[] = [];
  await transport.send(
    { method: 'GET', url, headers, timeoutMs: Math.max(1, Math.ceil(timeoutMs)) },
    {
      head: (code) => {
        status = code;
      },
      data: (chunk) => chunks.push(chunk),
    },
  );
  return { status, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started };
};

// The URL of `path` under a base URL that may itself carry a path prefix.
export const underBase = (base: URL, path: string): URL =>
  new URL(path.replace(/^\//, ''), base.href.endsWith('/') ? base : `${base.href}/`);
