// The workload's prompts: a built-in synthetic set of a chosen input length, or a JSONL file with one
// {"prompt" | "messages", "max_tokens"?} object per line, validated line by line.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { UsageError } from '../errors.ts';
import { seededRandom } from './random.ts';
import type { Prompt } from './request.ts';

// Common English words that most tokenizers encode as one token each with their leading space, so N words
// make a prompt of about N input tokens (the report's input figures come from the server's usage).
const WORDS = (
  'the of and to in is for on that with as was at by it from be this are or have an they which one you ' +
  'were all we when your can there has more would their if will about out up them some what time so ' +
  'other into than then these her two way could him first been now who its people my made over did'
).split(' ');

// `count` synthetic chat prompts of about `inputTokens` tokens each; each starts differently, so no two share
// a cached prefix.
export const syntheticPrompts = (
  count: number,
  inputTokens: number,
  maxTokens: number,
  seed: number,
): Prompt[] => {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, i) => {
    const words = [`Request ${String(i)}:`];
    for (let w = 1; w < inputTokens; w++) words.push(WORDS[Math.floor(random() * WORDS.length)] ?? 'the');
    return { messages: [{ role: 'user', content: words.join(' ') }], maxTokens };
  });
};

const message = z.object({ role: z.string().min(1), content: z.string() });
const line = z
  .object({
    prompt: z.string().min(1).optional(),
    messages: z.array(message).min(1).optional(),
    max_tokens: z.number().int().positive().optional(),
  })
  .refine((v) => (v.prompt === undefined) !== (v.messages === undefined), {
    error: 'give exactly one of "prompt" (a string) or "messages" (a list of {role, content})',
  });

// Reads a JSONL prompt file; throws a UsageError naming the file, line and field at fault.
export const readPromptFile = async (path: string, defaultMaxTokens: number): Promise<Prompt[]> => {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(
      `--prompts ${path}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      {
        option: '--prompts',
        hint: 'give a JSONL file with one {"prompt": "..."} or {"messages": [...]} object per line',
      },
    );
  }
  const prompts: Prompt[] = [];
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    if (raw.trim() === '') continue;
    const where = `${path}:${String(index + 1)}`;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw new UsageError(`${where}: not valid JSON`, {
        option: '--prompts',
        hint: 'each line must be one JSON object, e.g. {"prompt": "Hello", "max_tokens": 64}',
      });
    }
    const parsed = line.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue === undefined || issue.path.length === 0 ? '' : ` (${issue.path.join('.')})`;
      throw new UsageError(`${where}${field}: ${issue?.message ?? 'invalid line'}`, {
        option: '--prompts',
        hint: 'each line: {"prompt": string} or {"messages": [{"role", "content"}]}, with an optional positive "max_tokens"',
      });
    }
    const { prompt, messages, max_tokens } = parsed.data;
    prompts.push({
      ...(messages === undefined ? { prompt: prompt ?? '' } : { messages }),
      maxTokens: max_tokens ?? defaultMaxTokens,
    });
  }
  if (prompts.length === 0)
    throw new UsageError(`--prompts ${path}: the file holds no prompts`, { option: '--prompts' });
  return prompts;
};
