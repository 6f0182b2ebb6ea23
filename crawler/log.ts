/**
 * @module crawler/log
 * One logger per tool run: lines go to a log file under `crawl/logs/` (when the
 * tool knows its crawl directory) and, for warnings and the summary, to
 * stderr/stdout. Progress goes to the run's one ProgressDisplay: redrawn in
 * place on a terminal, a plain line every few seconds elsewhere.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ProgressDisplay, StepProgress } from './progress.js';

export interface LogOptions {
  /** Tool name, used in the log file name and line prefix. */
  tool: string;
  /** Directory for the log file (usually `<crawl>/logs`); no file when omitted. */
  dir?: string;
  err?: NodeJS.WritableStream;
  tty?: boolean;
  /** Milliseconds between plain progress lines when err is not a terminal (log.progress.interval). */
  plainIntervalMs?: number;
}

export class Log {
  private fd: number | undefined;
  private readonly display: ProgressDisplay;
  readonly file: string | undefined;

  constructor(private readonly opts: LogOptions) {
    this.display = new ProgressDisplay({ err: opts.err, tty: opts.tty, intervalMs: opts.plainIntervalMs });
    if (opts.dir) {
      fs.mkdirSync(opts.dir, { recursive: true });
      this.file = path.join(opts.dir, `${opts.tool}.log`);
      this.fd = fs.openSync(this.file, 'a');
    }
  }

  /** A line for the log file only. */
  info(msg: string): void {
    this.write('INFO', msg);
  }

  /**
   * Many lines for the log file in one write, each stamped with the time it
   * was recorded: a tool logging every item (fetch logs every URL) would
   * otherwise spend a system call per line.
   */
  infoLines(lines: readonly { at: number; msg: string }[]): void {
    if (this.fd === undefined || lines.length === 0) return;
    fs.writeSync(this.fd, lines.map((l) => `${new Date(l.at).toISOString()} INFO ${this.opts.tool}: ${l.msg}\n`).join(''));
  }

  /** A line for the log file and stderr. */
  warn(msg: string): void {
    this.write('WARN', msg);
    this.say(msg);
  }

  /** A line for the log file and stderr that is news, not trouble: where the log is, what a round will take. */
  notice(msg: string): void {
    this.write('INFO', msg);
    this.say(msg);
  }

  /** Shown before every progress line while set: a tool that runs others says where it is (`crawl depth 2/5`). */
  stage: string | undefined;

  /** The progress line: redrawn on a terminal (at most ten times a second unless forced), a plain line every few seconds elsewhere. */
  progress(line: string, force = false): void {
    this.display.show(this.stage ? `${this.stage} · ${line}` : line, force);
  }

  /** Progress of a counted step, with rate and ETA: `log.step('updatedb', 'URLs', total).update(done)`. */
  step(name: string, unit: string, total?: number): StepProgress {
    return new StepProgress((line, force) => this.progress(line, force), name, unit, total);
  }

  clearProgress(): void {
    this.display.clear();
  }

  close(): void {
    this.clearProgress();
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }

  private say(msg: string): void {
    this.display.clear();
    this.opts.err?.write(`${this.opts.tool}: ${msg}\n`);
  }

  private write(level: string, msg: string): void {
    if (this.fd !== undefined) fs.writeSync(this.fd, `${new Date().toISOString()} ${level} ${this.opts.tool}: ${msg}\n`);
  }
}
