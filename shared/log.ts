/**
 * @module shared/log
 * One logger per tool run: lines go to a log file under `crawl/logs/` (when the
 * tool knows its crawl directory) and, for warnings and the summary, to
 * stderr/stdout. On a terminal a single progress line is redrawn in place;
 * elsewhere progress is only logged, so CI output stays readable.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface LogOptions {
  /** Tool name, used in the log file name and line prefix. */
  tool: string;
  /** Directory for the log file (usually `<crawl>/logs`); no file when omitted. */
  dir?: string;
  err?: NodeJS.WritableStream;
  tty?: boolean;
}

export class Log {
  private fd: number | undefined;
  private progressShown = false;
  private lastProgress = 0;
  readonly file: string | undefined;

  constructor(private readonly opts: LogOptions) {
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
    this.clearProgress();
    this.opts.err?.write(`${this.opts.tool}: ${msg}\n`);
  }

  /** Shown before every progress line while set: a tool that runs others says where it is (`crawl depth 2/5`). */
  stage: string | undefined;

  /** Redraws the progress line on a terminal, at most ten times a second unless forced. */
  progress(line: string, force = false): void {
    if (!this.opts.tty || !this.opts.err) return;
    const now = Date.now();
    if (!force && now - this.lastProgress < 100) return;
    this.lastProgress = now;
    const cols = (this.opts.err as NodeJS.WriteStream).columns ?? 100;
    const text = this.stage ? `${this.stage} · ${line}` : line;
    this.opts.err.write(`\r\x1b[2K${text.slice(0, cols - 1)}`);
    this.progressShown = true;
  }

  clearProgress(): void {
    if (this.progressShown) {
      this.opts.err?.write('\r\x1b[2K');
      this.progressShown = false;
    }
  }

  close(): void {
    this.clearProgress();
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }

  private write(level: string, msg: string): void {
    if (this.fd !== undefined) fs.writeSync(this.fd, `${new Date().toISOString()} ${level} ${this.opts.tool}: ${msg}\n`);
  }
}
