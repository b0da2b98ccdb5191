#!/usr/bin/env node
import { main } from '../dist/cli/main.js';

// Resolves once everything written to the stream so far has been handed to the OS: a write's callback runs only
// after the writes queued before it. A stream whose reader went away has nothing left to flush: its error ends
// the wait too.
const flushed = (stream) =>
  new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) {
      resolve();
      return;
    }
    const done = () => {
      stream.off('error', done);
      resolve();
    };
    stream.on('error', done);
    stream.write('', done);
  });

// Exits once the output is out. The command has finished (a failed server is stopped, the launch record written),
// so nothing is left to wait for; letting Node wind down by itself (closing handles, freeing the heap) would only
// add tens of milliseconds between the verdict and the exit code a script waits on.
const exit = async (code) => {
  process.exitCode = code;
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
};

main(process.argv.slice(2)).then(exit, async (error) => {
  console.error(error);
  await exit(1);
});
