// Runs the CLI in this process (src/cli/main.ts) with in-memory output: for checks that stop before anything
// is launched (usage errors), where starting a whole Node process per case would only cost time.
import { Writable } from 'node:stream';
import { main } from '../../src/cli/main.ts';

export interface MainRun {
  code: number;
  stdout: string;
  stderr: string;
}

const memory = (): Writable & { text: () => string } => {
  const chunks: string[] = [];
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      chunks.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      callback();
    },
  });
  return Object.assign(stream, { text: () => chunks.join('') });
};

// Resolves main's exit code and what it wrote.
export const runMain = async (
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<MainRun> => {
  const stdout = memory();
  const stderr = memory();
  const code = await main(argv, { stdout, stderr, env, debug: false });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
};
