/**
 * @module crawler/parse/signature
 * Page signatures (Nutch's `db.signature.class`): the digest updatedb compares
 * to tell a changed page from an unchanged one, and dedup uses to find copies.
 *
 * - MD5Signature: MD5 of the raw content bytes, as in Nutch 0.9 and 1.2.
 *   (Nutch 1.0/1.1 hashed `String.valueOf(byte[])` — an object identity — plus
 *   the text, so no two fetches ever matched and dedup broke: NUTCH-835.)
 * - TextProfileSignature: MD5 of a quantised word-frequency profile of the
 *   parse text, so pages differing only in a date or a counter match. Ties in
 *   the profile are ordered by word, which makes the digest the same across
 *   runs (Nutch left them in hash-map order).
 */
import crypto from 'node:crypto';
import type { Conf } from '../../shared/conf.js';
import { HzError } from '../../shared/errors.js';

export type SignatureFn = (bytes: Buffer, text: string) => string;

// One call, without a Hash object a page.
const md5 = (data: Buffer | string) => crypto.hash('md5', data, 'hex');

export const md5Signature: SignatureFn = (bytes) => md5(bytes);

export function textProfileSignature(minTokenLen: number, quantRate: number): SignatureFn {
  return (bytes, text) => {
    if (!text) return md5(bytes);
    const counts = new Map<string, number>();
    let maxFreq = 0;
    for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
      const t = m[0];
      if (t.length <= minTokenLen) continue;
      const c = (counts.get(t) ?? 0) + 1;
      counts.set(t, c);
      if (c > maxFreq) maxFreq = c;
    }
    let quant = Math.round(maxFreq * quantRate);
    if (quant < 2) quant = maxFreq > 1 ? 2 : 1;
    const profile: [string, number][] = [];
    for (const [t, c] of counts) {
      const q = Math.floor(c / quant) * quant;
      if (q >= quant) profile.push([t, q]);
    }
    profile.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return md5(profile.map(([t, c]) => `${t} ${c}`).join('\n'));
  };
}

/** The signature function `db.signature.class` names (hazelnut's short names or Nutch's class names). */
export function signatureFromConf(conf: Conf): SignatureFn {
  const name = conf.get('db.signature.class');
  switch (name.slice(name.lastIndexOf('.') + 1)) {
    case 'MD5Signature':
      return md5Signature;
    case 'TextProfileSignature':
      return textProfileSignature(
        conf.getInt('db.signature.text_profile.min_token_len'),
        conf.getFloat('db.signature.text_profile.quant_rate'),
      );
    default:
      throw new HzError(
        'HZ_ERR_CONF_PROPERTY',
        `property db.signature.class in ${conf.source('db.signature.class')} must be MD5Signature or TextProfileSignature, not ${JSON.stringify(name)}`,
      );
  }
}
