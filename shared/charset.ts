/**
 * @module shared/charset
 * Turning stored bytes into text in a named charset, the same way wherever
 * it happens: the parser reading a fetched page and the searcher showing its
 * cached copy. TextDecoder (Node's full ICU) does the decoding; iconv-lite
 * covers the labels it lacks (iso-8859-16, cp949, utf-7). windows-1252 is
 * the web's default for unlabeled pages.
 */
import iconv from 'iconv-lite';

export const DEFAULT_CHARSET = 'windows-1252';

/** A canonical name for a charset label, or undefined if nothing here can decode it. */
export function canonicalCharset(label: string | null | undefined): string | undefined {
  const l = label?.trim().replace(/^["']|["']$/g, '').toLowerCase();
  if (!l) return undefined;
  try {
    return new TextDecoder(l).encoding;
  } catch {
    return iconv.encodingExists(l) ? l : undefined;
  }
}

/** Decodes bytes in a charset (replacement characters for bad sequences); an unknown charset decodes as windows-1252. */
export function decodeText(bytes: Uint8Array, charset: string): string {
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return iconv.decode(Buffer.from(bytes), iconv.encodingExists(charset) ? charset : DEFAULT_CHARSET);
  }
}
