// A plain HTTP server that only answers /health (503, then 200 once "ready"), for the detection benchmark.
// It records its own ready and exit instants (wall clock, ms) the way `vigil sim` does with VIGIL_SIM_TRACE.
// Usage: node --import tsx bench/lib/health-server.ts --port P --trace FILE
//   [--ready-after-first-probe MS] [--exit-after MS --exit-code N] [--stubborn-child]
// Ready counts from the first /health request, so the ready instant's place in a fixed-rate poller's schedule is
// set by MS alone, not by how long this server took to start.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { appendTrace } from './trace.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    trace: { type: 'string' },
    'ready-after-first-probe': { type: 'string' },
    'exit-after': { type: 'string' },
    'exit-code': { type: 'string', default: '1' },
    'stubborn-child': { type: 'boolean', default: false },
  },
});

const port = Number(values.port);
const trace = values.trace;
if (!Number.isInteger(port) || port <= 0 || trace === undefined) {
  process.stderr.write('health-server: --port N and --trace FILE are required\n');
  process.exit(2);
}
const readyAfterFirstProbe =
  values['ready-after-first-probe'] === undefined ? null : Number(values['ready-after-first-probe']);
const exitAfter = values['exit-after'] === undefined ? null : Number(values['exit-after']);
const exitCode = Number(values['exit-code']);

let ready = false;
let answered200 = false;
let probed = false;

// Records the ready instant, then switches: no 200 can be answered before the recorded instant.
const turnReady = (): void => {
  appendTrace(trace, { event: 'healthy', t: Date.now() });
  ready = true;
  process.stdout.write('health now answers 200\n');
};

const server = createServer((request, response) => {
  if (request.url !== '/health') {
    response.writeHead(404).end();
    return;
  }
  const t = Date.now();
  if (!probed && readyAfterFirstProbe !== null) setTimeout(turnReady, readyAfterFirstProbe);
  probed = true;
  response.writeHead(ready ? 200 : 503, { 'content-type': 'text/plain' }).end(ready ? 'ok' : 'starting');
  // When the first 200 went out: the part of a watcher's latency spent waiting for its next probe ends here.
  // Recorded after the answer, so the trace write never delays it.
  if (ready && !answered200) {
    answered200 = true;
    appendTrace(trace, { event: 'answered-200', t });
  }
});

// A child in this process group that ignores SIGTERM, as a rank stuck in a collective does: it outlives the
// leader's crash until the watcher's grace period ends and it is SIGKILLed.
if (values['stubborn-child']) {
  spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1e6);"], {
    stdio: 'ignore',
  });
}

server.listen(port, values.host, () => {
  appendTrace(trace, { event: 'listening', t: Date.now() });
  process.stdout.write(`listening on ${values.host}:${port}\n`);
  if (exitAfter !== null) {
    setTimeout(() => {
      process.stdout.write(`exiting with code ${exitCode}\n`);
      appendTrace(trace, { event: 'exit', t: Date.now(), code: exitCode });
      process.exit(exitCode);
    }, exitAfter);
  }
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    server.close();
    process.exit(0);
  });
}
