import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readPromptFile, syntheticPrompts } from '../../src/bench/prompts.ts';
import { makeTempDir, removeTempDirs } from '../helpers/temp.ts';

afterEach(removeTempDirs);

const file = async (text: string): Promise<string> => {
  const path = join(await makeTempDir(), 'prompts.jsonl');
  await writeFile(path, text);
  return path;
};

describe('prompt files', () => {
  it('reads prompts and messages, with their own max_tokens or the default', async () => {
    const path = await file(
      '{"prompt": "Hi"}\n\n{"messages": [{"role": "user", "content": "Yo"}], "max_tokens": 7}\n',
    );
    expect(await readPromptFile(path, 64)).toEqual([
      { prompt: 'Hi', maxTokens: 64 },
      { messages: [{ role: 'user', content: 'Yo' }], maxTokens: 7 },
    ]);
  });

  it.each([
    ['{"prompt": "a"}\nnot json\n', /prompts\.jsonl:2: not valid JSON/],
    ['{"prompt": "a", "messages": [{"role": "user", "content": "b"}]}\n', /:1: give exactly one of "prompt"/],
    ['{"prompt": "a", "max_tokens": -3}\n', /:1 \(max_tokens\): /],
    ['{"messages": [{"role": "user"}]}\n', /:1 \(messages\.0\.content\): /],
    ['\n\n', /holds no prompts/],
  ])('names the line and field at fault: %j', async (text, message) => {
    await expect(readPromptFile(await file(text), 64)).rejects.toThrow(message);
  });

  it('says when the file cannot be read', async () => {
    await expect(readPromptFile('/nonexistent/p.jsonl', 64)).rejects.toThrow(
      /cannot read the file \(ENOENT\)/,
    );
  });
});

describe('synthetic prompts', () => {
  it('are repeatable from the seed, of the asked length, and each starts differently', () => {
    const a = syntheticPrompts(3, 50, 16, 7);
    expect(syntheticPrompts(3, 50, 16, 7)).toEqual(a);
    expect(a.map((p) => p.messages?.[0]?.content.split(' ').length)).toEqual([51, 51, 51]);
    expect(new Set(a.map((p) => p.messages?.[0]?.content.slice(0, 12))).size).toBe(3);
    expect(a[0]?.maxTokens).toBe(16);
  });
});
