/**
 * @module shared/index/spill
 * Buffered files for what an index build keeps out of memory: a sink that
 * appends little-endian numbers, arrays and bytes through a 1 MB buffer, and a source
 * that reads them back in order through one. Both live in a spill directory
 * the build removes when it ends.
 */
import fs from 'node:fs';
import type { ColumnSource } from './format.js';

const BUFFER_BYTES = 1 << 20;

export class SpillSink {
  private readonly fd: number;
  private buf = Buffer.allocUnsafe(BUFFER_BYTES);
  private at = 0;
  /** Bytes appended so far. */
  bytes = 0;

  constructor(readonly file: string) {
    this.fd = fs.openSync(file, 'w');
  }

  private room(n: number): void {
    if (this.at + n > this.buf.length) this.flush();
    if (n > this.buf.length) this.buf = Buffer.allocUnsafe(n);
  }

  u32(v: number): void {
    this.room(4);
    this.at = this.buf.writeUInt32LE(v, this.at);
    this.bytes += 4;
  }

  u16s(a: Uint16Array): void {
    this.raw(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  }

  u32s(a: Uint32Array): void {
    this.raw(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  }

  raw(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.at);
    this.at += b.length;
    this.bytes += b.length;
  }

  flush(): void {
    if (this.at) fs.writeSync(this.fd, this.buf, 0, this.at);
    this.at = 0;
  }

  close(): void {
    this.flush();
    fs.closeSync(this.fd);
  }

  /** The closed file as a column of `length` elements of `type`, read back in 1 MB pieces. */
  column(name: string, type: ColumnSource['type'], length: number): ColumnSource {
    const file = this.file;
    return { name, type, length, chunks: () => fileChunks(file) };
  }
}

function* fileChunks(file: string): Generator<Uint8Array> {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(BUFFER_BYTES);
    for (let n; (n = fs.readSync(fd, buf, 0, buf.length, null)) > 0; ) yield buf.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
}

export class SpillSource {
  private readonly fd: number;
  private buf: Buffer;
  private at = 0;
  private end = 0;
  private eof = false;

  /** `bufferBytes`: read ahead this much; smaller where many sources are read at once (postings runs). */
  constructor(
    readonly file: string,
    private readonly bufferBytes = BUFFER_BYTES,
  ) {
    this.fd = fs.openSync(file, 'r');
    this.buf = Buffer.allocUnsafe(bufferBytes);
  }

  /** Makes `n` bytes readable at `at`; false at the end of the file. */
  private need(n: number): boolean {
    if (this.end - this.at >= n) return true;
    if (this.eof) return false;
    const left = this.end - this.at;
    const next = n > this.buf.length ? Buffer.allocUnsafe(n + this.bufferBytes) : this.buf;
    this.buf.copy(next, 0, this.at, this.end);
    this.buf = next;
    this.at = 0;
    this.end = left;
    while (this.end < n) {
      const got = fs.readSync(this.fd, this.buf, this.end, this.buf.length - this.end, null);
      if (got === 0) {
        this.eof = true;
        break;
      }
      this.end += got;
    }
    return this.end - this.at >= n;
  }

  /** False when nothing is left. */
  more(): boolean {
    return this.need(1);
  }

  u32(): number {
    if (!this.need(4)) throw new Error(`spill file ${this.file} ended early`);
    const v = this.buf.readUInt32LE(this.at);
    this.at += 4;
    return v;
  }

  /** `n` u32 values, copied. */
  u32s(n: number): Uint32Array {
    return this.array(Uint32Array, n);
  }

  /** `n` u16 values, copied. */
  u16s(n: number): Uint16Array {
    return this.array(Uint16Array, n);
  }

  private array<A extends Uint16Array | Uint32Array>(ctor: { new (n: number): A; BYTES_PER_ELEMENT: number }, n: number): A {
    const bytes = n * ctor.BYTES_PER_ELEMENT;
    if (!this.need(bytes)) throw new Error(`spill file ${this.file} ended early`);
    const out = new ctor(n);
    new Uint8Array(out.buffer).set(this.buf.subarray(this.at, this.at + bytes));
    this.at += bytes;
    return out;
  }

  /** `n` bytes, a view valid until the next read. */
  bytes(n: number): Buffer {
    if (!this.need(n)) throw new Error(`spill file ${this.file} ended early`);
    const out = this.buf.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}
