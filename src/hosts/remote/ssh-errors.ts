// Turns a failed ssh (exit 255) into an error that names the cause: unreachable, timed out, refused, auth, host key.
import { VigilError } from '../../errors.ts';

// Why ssh could not get a shell on the host.
export type SshFailureKind =
  'timeout' | 'refused' | 'unreachable' | 'auth' | 'host-key-unknown' | 'host-key-changed' | 'other';

const PATTERNS: readonly [RegExp, SshFailureKind][] = [
  [/REMOTE HOST IDENTIFICATION HAS CHANGED|Host key for .* has changed/i, 'host-key-changed'],
  [/No \S+ host key is known|Host key verification failed/i, 'host-key-unknown'],
  [/Permission denied|Too many authentication failures|no mutual signature/i, 'auth'],
  [/timed out|Connection timeout/i, 'timeout'],
  [/Connection refused/i, 'refused'],
  [
    /No route to host|Network is unreachable|Could not resolve hostname|Name or service not known|closed by remote host|Connection reset|Broken pipe|lost connection|mux_client/i,
    'unreachable',
  ],
];

// Reads ssh's stderr for the cause.
export const classifySshFailure = (stderr: string): SshFailureKind =>
  PATTERNS.find(([pattern]) => pattern.test(stderr))?.[1] ?? 'other';

const ADVICE: Record<SshFailureKind, [string, string]> = {
  timeout: [
    'the connection timed out',
    'check the address and that the host is up; raise --connect-timeout for slow links',
  ],
  refused: [
    'the connection was refused (no sshd listening)',
    'check the port in --host and that sshd runs there',
  ],
  unreachable: [
    'the host cannot be reached',
    'check the address, the network and any ProxyJump in your ssh config',
  ],
  auth: [
    'authentication failed',
    'check the user and that your key or agent is accepted (ssh runs with BatchMode: no password prompts)',
  ],
  'host-key-unknown': [
    "the host's key is not known",
    'connect once with ssh to accept the key, or add it to known_hosts',
  ],
  'host-key-changed': [
    "the host's key has CHANGED since it was recorded",
    'verify the host, then update known_hosts (ssh-keygen -R HOST)',
  ],
  other: ['ssh failed', 'run the same ssh by hand to see why'],
};

// The error vigil reports (exit 6): what failed, ssh's own last words, what to do.
export const sshFailureError = (host: string, stderr: string): VigilError => {
  const kind = classifySshFailure(stderr);
  const [what, hint] = ADVICE[kind];
  const last = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('@@@') && !line.startsWith('Warning: Permanently'))
    .at(-1);
  return new VigilError('E_UNREACHABLE', `${host}: ${what}${last === undefined ? '' : ` (ssh: ${last})`}`, {
    hint,
  });
};
