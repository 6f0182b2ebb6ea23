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
/**
 * Arrays this short are read an element at a time: a postings run holds a
 * few postings a term, and viewing such a slice as bytes to copy it whole
 * costs more than the copy.
 */
const SHORT = 16;

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
  }

  u32(v: number): void {
    this.room(4);
    this.at = this.buf.writeUInt32LE(v, this.at);
    this.bytes += 4;
  }

  u16(v: number): void {
    this.room(2);
    this.at = this.buf.writeUInt16LE(v, this.at);
    this.bytes += 2;
  }

  f64(v: number): void {
    this.room(8);
    this.at = this.buf.writeDoubleLE(v, this.at);
    this.bytes += 8;
  }

  u16s(a: Uint16Array): void {
    this.raw(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  }

  u32s(a: Uint32Array): void {
    this.raw(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  }

  raw(b: Uint8Array): void {
    // Past the buffer's size, written as it is rather than copied into a buffer grown to hold it.
    if (b.length > this.buf.length) {
      this.flush();
      for (let o = 0; o < b.length; ) o += fs.writeSync(this.fd, b, o);
      this.bytes += b.length;
      return;
    }
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
    const out = new ctor(n);
    this.into(out, n);
    return out;
  }

  /** `n` u32 values into `out` from its start (it has room), which is returned. */
  u32sInto(n: number, out: Uint32Array): Uint32Array {
    if (n > SHORT) return this.into(out, n);
    const b = this.take(4 * n);
    for (let i = 0, at = this.at - 4 * n; i < n; i++, at += 4) out[i] = (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
    return out;
  }

  /** `n` u16 values into `out` from its start (it has room), which is returned. */
  u16sInto(n: number, out: Uint16Array): Uint16Array {
    return this.into(out, n);
  }

  /** Passes over `bytes` bytes, which the buffer holds before `at` after the call; returns the buffer. */
  private take(bytes: number): Buffer {
    if (!this.need(bytes)) throw new Error(`spill file ${this.file} ended early`);
    this.at += bytes;
    return this.buf;
  }

  /** Copies `n` elements into `out` whole, through views of the bytes rather than a Buffer's slice. */
  private into<A extends Uint16Array | Uint32Array>(out: A, n: number): A {
    const bytes = n * out.BYTES_PER_ELEMENT;
    const b = this.take(bytes);
    new Uint8Array(out.buffer, out.byteOffset, bytes).set(new Uint8Array(b.buffer, b.byteOffset + this.at - bytes, bytes));
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
