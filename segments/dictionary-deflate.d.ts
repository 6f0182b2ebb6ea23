// Types of segments/dictionary-deflate.js.
export declare function dictionaryDeflate(
  level: number,
  kept: number,
): { deflate: (body: Uint8Array, dict: Uint8Array) => Buffer; close: () => void };
