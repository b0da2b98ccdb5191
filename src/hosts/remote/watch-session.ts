// The vigil side of a remote watch: one watcher per launch over the master connection, its records turned into
// the three signals the watch loop consumes (liveness, log lines, probe results). A lost link is retried with
// backoff until the deadline; the new watcher resumes at the last byte received, so no line is lost or repeated.
// A changed boot id ends the watch at once: the host rebooted.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants } from 'node:os';
import type { FollowLogOptions, FollowedLine, LogFollower } from '../../logs/follow.ts';
import type { Prober, ProberOptions } from '../../probe/prober.ts';
import type { Liveness, LivenessHandlers, ProcessEnd } from '../../watch/liveness.ts';
import { describeExit } from '../../watch/liveness.ts';
import { createLineSplitter } from './lines.ts';
import { createRecordParser, type WatchRecord } from './records.ts';
import type { SshTransport } from './ssh.ts';
import { sshFailureError } from './ssh-errors.ts';
import { watcherScript } from './watcher-script.ts';

// What identifies a remote launch.
export interface RemoteLaunchIds {
  id: string;
  pid: number | null;
  pgid: number | null;
  sid: number | null;
  starttime: number | null;
  bootId: string;
  exitFile: string | null;
  log: string | null;
  logOffset: number;
}

export interface RemoteWatchInput {
  transport: SshTransport;
  launch: RemoteLaunchIds;
  url: string | null;
  headers: Readonly<Record<string, string>>;
  intervalMs: number;
  probeTimeoutMs: number;
  /** performance.now() after which a lost link is no longer retried. */
  deadline: number;
  onUnreachable(sinceMs: number): void;
  onReconnected(afterMs: number): void;
}

export interface RemoteWatch {
  /** Starts the first watcher; resolves once it runs (boot id checked), rejects when the host cannot be reached. */
  connect(): Promise<void>;
  liveness: Liveness;
  createFollower(options: FollowLogOptions): LogFollower;
  createProber(options: ProberOptions): Prober;
  link: { onChange(listener: (up: boolean) => void): void };
  /** Whether the link is down now. */
  isDown(): boolean;
  /** The log offset up to which every byte was delivered. */
  offset(): number;
  close(): void;
}

const BACKOFF_MS = [250, 500, 1000, 2000];

const signalName = (code: number | null): { code: number | null; signal: string | null } => {
  if (code === null || code <= 128) return { code, signal: null };
  const name = Object.entries(constants.signals).find(([, n]) => n === code - 128)?.[0] ?? null;
  return name === null ? { code, signal: null } : { code: null, signal: name };
};

export const createRemoteWatch = (input: RemoteWatchInput): RemoteWatch => {
  const { launch, transport } = input;
  let child: ChildProcess | null = null;
  let closed = false;
  let down = false;
  let downSince = 0;
  let attempt = 0;
  let delivered = launch.logOffset;
  let first = true;
  let retryTimer: NodeJS.Timeout | null = null;
  const linkListeners: ((up: boolean) => void)[] = [];
  const splitter = createLineSplitter();

  // Liveness: the end is kept until the loop listens.
  let ended: ProcessEnd | null = null;
  let livenessHandlers: LivenessHandlers | null = null;
  const pendingNotices: [string, string][] = [];
  const end = (value: ProcessEnd): void => {
    if (ended !== null) return;
    ended = value;
    livenessHandlers?.onEnd(value);
  };
  const notice = (code: string, message: string): void => {
    if (livenessHandlers === null) pendingNotices.push([code, message]);
    else livenessHandlers.onNotice(code, message);
  };

  // Log lines: queued batches for the follower.
  const batches: FollowedLine[][] = [];
  let wake: (() => void) | null = null;
  let followerClosed = false;
  let onNote: FollowLogOptions['onNote'];
  const pushLines = (lines: FollowedLine[]): void => {
    if (lines.length === 0 || followerClosed) return;
    batches.push(lines);
    wake?.();
  };

  let probeResult: ProberOptions['onResult'] | null = null;
  let probeUrl = input.url ?? '';

  // A probe waits until the log has arrived up to the size it had when the answer came, so that every line the
  // server wrote before it answered reaches the loop before a verdict on that answer.
  const heldProbes: Extract<WatchRecord, { kind: 'probe' }>[] = [];
  const releaseProbes = (all = false): void => {
    for (let probe = heldProbes[0]; probe !== undefined; probe = heldProbes[0]) {
      if (!all && probe.logSize !== null && probe.logSize > delivered) return;
      heldProbes.shift();
      probeResult?.({
        url: probeUrl,
        status: probe.status,
        error: probe.error,
        ms: probe.ms,
        connected: probe.status !== null || probe.error !== 'ECONNREFUSED',
      });
    }
  };

  const onRecord = (record: WatchRecord, connection: ChildProcess, booted: () => void): void => {
    if (connection !== child || closed) return;
    switch (record.kind) {
      case 'boot':
        if (record.id !== launch.bootId) {
          end({
            code: null,
            signal: null,
            detail: `${transport.label} rebooted (its boot id changed), so the server is gone`,
            hostRebooted: true,
          });
          return;
        }
        booted();
        return;
      case 'lines':
        splitter.setLineNo(record.count + 1);
        return;
      case 'log': {
        const skip = Math.max(0, delivered - record.offset);
        if (skip < record.bytes.length) pushLines(splitter.push(record.bytes.subarray(skip)));
        delivered = Math.max(delivered, record.offset + record.bytes.length);
        releaseProbes();
        return;
      }
      case 'truncated':
        pushLines(splitter.flush());
        splitter.reset();
        delivered = 0;
        releaseProbes(true);
        onNote?.({
          code: 'truncated',
          message: `${launch.log ?? 'the log'} was truncated; reading it from the start`,
        });
        return;
      case 'probe':
        heldProbes.push(record);
        releaseProbes();
        return;
      case 'leader-exited':
        notice(
          'leader-exited',
          `the launched command (pid ${String(launch.pid)}) exited ${record.code ?? ''} but its session lives on; watching those processes`,
        );
        return;
      case 'end': {
        const exit = signalName(record.code);
        end({
          ...exit,
          detail:
            record.code === null
              ? `no process of the launch is left on ${transport.label}`
              : describeExit(exit.code, exit.signal),
        });
        return;
      }
    }
  };

  const setLink = (up: boolean): void => {
    for (const listener of linkListeners) listener(up);
  };

  // Starts one watcher; resolves when it reported the boot id, rejects when it ended before.
  const open = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const countLines = first && delivered > 0;
      first = false;
      const connection = transport.start(
        watcherScript({
          id: launch.id,
          token: randomBytes(8).toString('hex'),
          pid: launch.pid,
          pgid: launch.pgid,
          sid: launch.sid,
          starttime: launch.starttime,
          exitFile: launch.exitFile,
          log: launch.log,
          offset: delivered,
          countLines,
          url: input.url,
          headers: input.headers,
          intervalMs: input.intervalMs,
          probeTimeoutMs: input.probeTimeoutMs,
        }),
      );
      child = connection;
      let booted = false;
      let stderr = '';
      const parser = createRecordParser((record) => {
        onRecord(record, connection, () => {
          booted = true;
          resolve();
        });
      });
      connection.stdout?.on('data', (chunk: Buffer) => {
        parser.push(chunk);
      });
      connection.stderr?.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString('utf8')).slice(-4096);
      });
      connection.once('error', (error) => {
        reject(error);
      });
      connection.once('close', (code) => {
        if (!booted)
          reject(
            code === 255
              ? sshFailureError(transport.label, stderr)
              : new Error(stderr.trim() || `the watcher ended (${String(code)})`),
          );
        if (connection === child) lost();
      });
    });

  const lost = (): void => {
    if (closed || ended !== null) return;
    if (!down) {
      down = true;
      downSince = performance.now();
      attempt = 0;
      input.onUnreachable(Math.round(downSince));
      setLink(false);
    }
    if (performance.now() >= input.deadline) return;
    const wait = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)] ?? 2000;
    attempt++;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      if (closed || ended !== null) return;
      open().then(
        () => {
          if (!down || closed) return;
          down = false;
          input.onReconnected(Math.round(performance.now() - downSince));
          setLink(true);
        },
        () => undefined,
      );
    }, wait);
  };

  const close = (): void => {
    if (closed) return;
    closed = true;
    if (retryTimer !== null) clearTimeout(retryTimer);
    const last = child;
    child = null;
    last?.stdin?.end();
    // The watcher leaves when its stdin ends; ssh itself is not needed any longer.
    setTimeout(() => last?.kill('SIGTERM'), 2000).unref();
  };

  return {
    connect: open,
    liveness: {
      start(handlers) {
        livenessHandlers = handlers;
        for (const [code, message] of pendingNotices.splice(0)) handlers.onNotice(code, message);
        if (ended !== null) handlers.onEnd(ended);
      },
      stop() {
        livenessHandlers = null;
      },
    },
    createFollower(options) {
      onNote = options.onNote;
      const isClosed = (): boolean => followerClosed;
      const iterate = async function* (): AsyncGenerator<FollowedLine[]> {
        while (!isClosed()) {
          const batch = batches.shift();
          if (batch !== undefined) {
            yield batch;
            continue;
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = null;
        }
      };
      return {
        [Symbol.asyncIterator]: iterate,
        drain: ({ final = false } = {}) => {
          const lines = batches.splice(0).flat();
          if (final) lines.push(...splitter.flush());
          return Promise.resolve(lines);
        },
        close: () => {
          followerClosed = true;
          wake?.();
          return Promise.resolve();
        },
      };
    },
    createProber(options) {
      probeUrl = options.url;
      let stopped = false;
      return {
        start() {
          probeResult = (result) => {
            if (!stopped) options.onResult(result);
          };
        },
        trigger() {
          if (!stopped) child?.stdin?.write('p\n');
        },
        stop() {
          stopped = true;
        },
      };
    },
    link: {
      onChange(listener) {
        linkListeners.push(listener);
      },
    },
    isDown: () => down,
    offset: () => delivered,
    close,
  };
};
