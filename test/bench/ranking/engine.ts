/**
 * What each engine of the ranking benchmark hands back once its index is
 * built: one or more ways to rank a query (an engine's default and the
 * variants worth reporting beside it), or why it was skipped.
 */
export interface Variant {
  label: string;
  /** The engine's top-10 result URLs for a query, best first. */
  rank(q: string): Promise<string[]>;
}

export type EngineSetup =
  | { skipped: string }
  | {
      /** Crawl and/or index time, ms. */
      indexMs: number;
      /** Documents in the engine's index, as the engine counts them. */
      docs: number;
      /** The exact commands, for the report. */
      commands: string[];
      variants: Variant[];
      close?: () => void;
    };
