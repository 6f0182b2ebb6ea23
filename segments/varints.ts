/**
 * @module segments/varints
 * LEB128 varints read in turn from a stored record (summaries' checkpoints,
 * word offsets), where damage must be told from data: a varint cut off by
 * the record's end, or longer than 35 bits, reads as -1 for the caller to
 * refuse the record.
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
