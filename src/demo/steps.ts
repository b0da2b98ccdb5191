// The building blocks of the demo: a free port, a draft checkpoint folder, running vigil itself, one request.
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { vigilCommand } from '../self.ts';

export { freePort } from '../hosts/port.ts';

// Writes an EAGLE-3 draft folder in SGLang's layout (config only: the simulator loads no weights).
export const writeDraftCheckpoint = async (dir: string): Promise<string> => {
  const path = join(dir, 'eagle3-draft');
  await mkdir(path, { recursive: true });
  const config = {
    architectures: ['LlamaForCausalLMEagle3'],
    model_type: 'llama',
    hidden_size: 7168,
    num_hidden_layers: 1,
    draft_vocab_size: 32000,
    vocab_size: 163840,
  };
  await writeFile(join(path, 'config.json'), `${JSON.stringify(config, null, 2)}\n`);
  return path;
};

export interface VigilRun {
  code: number;
  ms: number;
  /** The last lines vigil printed, without colour or redraw codes. */
  lastLines: string[];
}

// Runs vigil as a separate process, forwarding its output, and keeps its last line.
export const runVigil = (
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; forward: (chunk: string) => void; signal: AbortSignal },
): Promise<VigilRun> =>
  new Promise((resolve, reject) => {
    const [file, ...rest] = vigilCommand(...args);
    const started = performance.now();
    const child = spawn(file ?? process.execPath, rest, {
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      signal: options.signal,
    });
    let tail = '';
    const onData = (chunk: Buffer): void => {
      const text = chunk.toString('utf8');
      options.forward(text);
      tail = (tail + text).slice(-4096);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      const lines = stripVTControlCharacters(tail)
        .split(/[\r\n]+/)
        .map((line) => line.trim())
        .filter((line) => line !== '');
      resolve({
        code: code ?? (signal === null ? 1 : 128),
        ms: performance.now() - started,
        lastLines: lines.slice(-20),
      });
    });
  });

export interface Generation {
  text: string;
  completionTokens: number;
  ms: number;
}

// Sends one chat completion, the way a client of the server would.
export const generateOnce = async (
  origin: string,
  apiKey: string,
  signal: AbortSignal,
): Promise<Generation> => {
  const started = performance.now();
  const response = await fetch(`${origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({
      model: 'default',
      messages: [{ role: 'user', content: 'In one sentence: why watch a server start?' }],
      max_tokens: 48,
    }),
    signal,
  });
  const body = (await response.json()) as {
    choices?: { message?: { content?: string } }[];
    usage?: { completion_tokens?: number };
  };
  if (response.status !== 200) throw new Error(`the server answered ${response.status}`);
  return {
    text: body.choices?.[0]?.message?.content ?? '',
    completionTokens: body.usage?.completion_tokens ?? 0,
    ms: performance.now() - started,
  };
};

// Reads SGLang's mean speculative acceptance length from /server_info, when the server reports one.
export const acceptLength = async (
  origin: string,
  apiKey: string,
  signal: AbortSignal,
): Promise<number | null> => {
  const response = await fetch(`${origin}/server_info`, {
    headers: { authorization: `Bearer ${apiKey}` },
    signal,
  });
  const body = (await response.json()) as { internal_states?: { avg_spec_accept_length?: number }[] };
  return body.internal_states?.[0]?.avg_spec_accept_length ?? null;
};
