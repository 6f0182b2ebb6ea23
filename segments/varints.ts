/**
 * @module segments/varints
 * LEB128 varints of the stored records of summaries (checkpoints, word
 * offsets), written and read in turn. Reading, damage must be told from
 * data: a varint cut off by the record's end, or longer than 35 bits, reads
 * as -1 for the caller to refuse the record.
 */
export class VarintReader {
  /** Where the next varint starts. */
  at = 0;

  constructor(private readonly data: Uint8Array) {}

  /** Bytes not read yet. */
  get left(): number {
    return this.data.length - this.at;
  }

  /** The next varint, or -1 when the record is damaged there. */
  next(): number {
    let v = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (this.at >= this.data.length) return -1;
      const b = this.data[this.at++]!;
      v += (b & 0x7f) * 2 ** shift;
      if (!(b & 0x80)) return v;
    }
    return -1;
  }
}

/** Varints of 32 bits at most, into a buffer grown as needed. */
export class VarintWriter {
  private out = Buffer.allocUnsafe(256);
  private at = 0;

  push(v: number): void {
    if (this.at + 5 > this.out.length) {
      const grown = Buffer.allocUnsafe(2 * this.out.length);
      this.out.copy(grown, 0, 0, this.at);
      this.out = grown;
    }
    while (v > 0x7f) {
      this.out[this.at++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.out[this.at++] = v;
  }

  /** What was written (a view of the buffer). */
  bytes(): Buffer {
    return this.out.subarray(0, this.at);
  }
}
