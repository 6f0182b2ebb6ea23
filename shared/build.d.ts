// Types of shared/build.js.
export declare const ENTRIES: readonly string[];
export declare function ensureBuild(opts?: { root?: string; out?: string; entries?: readonly string[]; graceMs?: number }): Promise<URL>;
export declare function loadCommand(entry: string): Promise<unknown>;
