/**
 * @module crawler/parse/breathe
 * Parsing runs inline on the fetcher's event loop. A page at the content
 * limit (8 MiB of markup, or 100,000 links) takes a second or two to parse on
 * a loaded machine, and the other hosts' requests, timers and robots.txt
 * timeouts must not wait that long: long loops of the parse hand the event
 * loop back every so often. The sizes keep one stretch to a few milliseconds.
 */
import { setImmediate } from 'node:timers/promises';

/** Characters of markup tokenized between two breaths. */
export const SLICE_CHARS = 1 << 14;

/** Links resolved, normalized or filtered between two breaths. */
export const LINKS_PER_BREATH = 1024;

/** Lets pending I/O and timers run. */
export const breathe = (): Promise<void> => setImmediate();
