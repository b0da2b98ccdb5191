// The timed server of the acceptance test in a process of its own: `--ttft MS --itl MS`; prints its URL once
// listening.
import { parseArgs } from 'node:util';
import { startTimedServer } from '../../test/bench/timed-server.ts';

const { values } = parseArgs({ options: { ttft: { type: 'string' }, itl: { type: 'string' } } });
const server = await startTimedServer(Number(values.ttft), Number(values.itl));
process.stdout.write(`${server.url}\n`);
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
