/** Where the CLI writes: a stream-like sink (process.stdout, process.stderr or a test buffer). */
export interface CliOutput {
  write(text: string): void;
  /** True when the sink is a terminal (progress bars are only drawn then). */
  isTTY?: boolean;
  /** Terminal width, when known. */
  columns?: number;
}

/** Everything the CLI touches outside itself, so it can run in-process in tests. */
export interface CliIo {
  stdout: CliOutput;
  stderr: CliOutput;
  env: Record<string, string | undefined>;
  /** Directory relative paths (files, `--db`) are resolved against. */
  cwd: string;
  /** Where interactive input comes from (`strata chat`); default: nothing to read. */
  stdin?: NodeJS.ReadableStream;
  /** Aborted when a long-running command (`strata serve`) should stop; default: SIGINT or SIGTERM. */
  stop?: AbortSignal;
}

let pipesGuarded = false;

/** `strata … | head` closes stdout early: that is not an error worth a stack trace. */
function ignoreClosedPipes(): void {
  if (pipesGuarded) return;
  pipesGuarded = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
}

/** The real process: its streams, environment and working directory. */
export function processIo(): CliIo {
  ignoreClosedPipes();
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(), stdin: process.stdin };
}

/** Write one line (a newline is added). */
export function writeLine(output: CliOutput, text = ''): void {
  output.write(`${text}\n`);
}

/** Write a value as one line of compact JSON (`--json` output). */
export function writeJson(output: CliOutput, value: unknown): void {
  output.write(`${JSON.stringify(value)}\n`);
}
