/**
 * @module shared/index/lru
 * A least-recently-used map whose values weigh something each, kept under a
 * budget in all: what an index reader keeps read or decoded (stored
 * documents, postings, decoded blocks, unit scores) stays bounded whatever
 * the index's size.
 */
export class Lru<K, V> {
  private readonly m = new Map<K, V>();
  private held = 0;
  constructor(
    private readonly budget: number,
    private readonly weigh: (v: V) => number,
  ) {}
  get(k: K): V | undefined {
    const v = this.m.get(k);
    if (v !== undefined) {
      this.m.delete(k);
      this.m.set(k, v);
    }
    return v;
  }
  set(k: K, v: V): V {
    const was = this.m.get(k);
    if (was !== undefined) {
      this.m.delete(k);
      this.held -= this.weigh(was);
    }
    this.m.set(k, v);
    this.held += this.weigh(v);
    for (const [old, ov] of this.m) {
      if (this.held <= this.budget || this.m.size === 1) break;
      this.m.delete(old);
      this.held -= this.weigh(ov);
    }
    return v;
  }
  clear(): void {
    this.m.clear();
    this.held = 0;
  }
}
