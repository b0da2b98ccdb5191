// Counters behind /server_info, /metrics and SGLang's periodic `Decode batch` line.

/** What SGLang's decode logger reports over one interval (docs/engines/facts.md). */
export interface DecodeReport {
  running: number;
  tokens: number;
  /** Accepted tokens per verify step over the interval; null without a draft model. */
  acceptLength: number | null;
  /** (accepted - steps) / (steps x (draft tokens - 1)), as SGLang computes its accept rate. */
  acceptRate: number | null;
  genThroughput: number;
}

export class ServingStats {
  requests = 0;
  running = 0;
  promptTokens = 0;
  generationTokens = 0;
  /** Verify steps and tokens they released, since start (speculative runs only). */
  specSteps = 0;
  specTokens = 0;
  /** Verify steps whose draft token at each position was accepted (vLLM's per-position counter). */
  acceptedByPosition: number[] = [];
  lastGenThroughput = 0;
  private intervalSteps = 0;
  private intervalTokens = 0;
  private intervalStart = Date.now();

  constructor(
    private readonly options: {
      decodeLogInterval: number;
      /** Draft tokens per verify step, or null without a draft model. */
      draftTokens: number | null;
      onDecodeReport: (report: DecodeReport) => void;
    },
  ) {}

  // A request entered the batch.
  startRequest(promptTokens: number): void {
    this.requests++;
    this.running++;
    this.promptTokens += promptTokens;
  }

  // A request left the batch.
  finishRequest(): void {
    this.running = Math.max(0, this.running - 1);
  }

  // One decode (or verify) step released `tokens` tokens.
  recordStep(tokens: number): void {
    this.generationTokens += tokens;
    if (this.options.draftTokens !== null) {
      this.specSteps++;
      this.specTokens += tokens;
      // A step releasing k tokens accepted the drafts at positions 0..k-2 (the last token is the bonus).
      for (let p = 0; p < tokens - 1; p++) this.acceptedByPosition[p] = (this.acceptedByPosition[p] ?? 0) + 1;
    }
    this.intervalSteps++;
    this.intervalTokens += tokens;
    if (this.intervalSteps >= this.options.decodeLogInterval) this.report();
  }

  // SGLang's cumulative average acceptance length, or null before the first verify step.
  get avgAcceptLength(): number | null {
    return this.specSteps === 0 ? null : this.specTokens / this.specSteps;
  }

  private report(): void {
    const seconds = Math.max((Date.now() - this.intervalStart) / 1000, 1e-3);
    const { draftTokens } = this.options;
    const acceptLength = draftTokens === null ? null : this.intervalTokens / this.intervalSteps;
    const perRound = draftTokens === null ? 0 : draftTokens - 1;
    const acceptRate =
      acceptLength === null || perRound <= 0
        ? null
        : (this.intervalTokens - this.intervalSteps) / (this.intervalSteps * perRound);
    this.lastGenThroughput = this.intervalTokens / seconds;
    this.options.onDecodeReport({
      running: this.running,
      tokens: this.generationTokens,
      acceptLength,
      acceptRate,
      genThroughput: this.lastGenThroughput,
    });
    this.intervalSteps = 0;
    this.intervalTokens = 0;
    this.intervalStart = Date.now();
  }
}
