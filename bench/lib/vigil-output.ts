// Reading vigil's `--output jsonl` in the harness: the launched server's process group, to stop it afterwards.

// The `pgid` of the `launched` event, or undefined when vigil printed none.
export const launchedPgid = (jsonl: string): number | undefined => {
  for (const line of jsonl.split('\n')) {
    if (!line.includes('"launched"')) continue;
    try {
      const event = JSON.parse(line) as { type?: string; pgid?: number };
      if (event.type === 'launched') return event.pgid;
    } catch {
      // Not an event line.
    }
  }
  return undefined;
};
