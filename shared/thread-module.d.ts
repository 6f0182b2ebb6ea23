// Types of shared/thread-module.js.
export declare const builtName: (rel: string) => string;
export declare function threadModule(url: URL | string): URL;
export declare function loadModule(url: URL | string): Promise<unknown>;
