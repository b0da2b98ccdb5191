import { describe, expect, it } from 'vitest';
import { createRedactor, MASK } from '../../src/redact/redactor.ts';

describe('createRedactor', () => {
  const redact = createRedactor({
    argv: [
      'python',
      '-m',
      'sglang.launch_server',
      '--api-key',
      'sk-live-123456',
      '--admin-api-key=adm-98765',
    ],
    env: { HF_TOKEN: 'hf_abcdefgh', NCCL_DEBUG: 'INFO', MY_PASSWORD: 'hunter22' },
  });

  it('masks flag values wherever they appear', () => {
    expect(redact("server_args=ServerArgs(model_path='m', api_key='sk-live-123456', port=30000)")).toBe(
      `server_args=ServerArgs(model_path='m', api_key='${MASK}', port=30000)`,
    );
    expect(redact('token is sk-live-123456 and adm-98765')).toBe(`token is ${MASK} and ${MASK}`);
  });

  it('masks secret env values but not harmless ones', () => {
    expect(redact('using hf_abcdefgh to log in; NCCL_DEBUG=INFO; hunter22')).toBe(
      `using ${MASK} to log in; NCCL_DEBUG=INFO; ${MASK}`,
    );
  });

  it('masks an api_key shape even when the value is unknown', () => {
    expect(createRedactor()("ServerArgs(api_key='other-secret')")).toBe(`ServerArgs(api_key='${MASK}')`);
    expect(createRedactor()('vllm serve m --api-key abcdef')).toBe(`vllm serve m --api-key ${MASK}`);
  });

  it('redacts argv keeping its shape', () => {
    expect(redact.argv(['--api-key', 'sk-live-123456', '--port', '1'])).toEqual([
      '--api-key',
      MASK,
      '--port',
      '1',
    ]);
  });
});

describe('secret options and shapes', () => {
  it('treats options named close to a secret flag as secret', async () => {
    const { isSecretOption } = await import('../../src/redact/redactor.ts');
    for (const name of [
      '--api-key',
      '--api_key',
      '--api-k',
      '--api-kye',
      '--apikey',
      '--admin-api-k',
      '--hf-token',
    ])
      expect(isSecretOption(name), name).toBe(true);
    for (const name of ['--port', '--model-path', '--tokenizer-path', '--max-total-tokens', '--tp'])
      expect(isSecretOption(name), name).toBe(false);
  });

  it('masks URL credentials and learns keys from a server_args line', () => {
    const redact = createRedactor();
    expect(redact('GET http://bob:s3cr3t-pw@127.0.0.1:8000/health')).toBe(
      `GET http://bob:${MASK}@127.0.0.1:8000/health`,
    );
    expect(redact('clone https://ghp_tokenvalue@github.invalid/x')).toBe(
      `clone https://${MASK}@github.invalid/x`,
    );
    redact.learn("server_args=ServerArgs(api_key='sk-learn-1234')");
    expect(redact('later: sk-learn-1234')).toBe(`later: ${MASK}`);
  });
});
