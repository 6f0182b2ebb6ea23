// The document worker's entry. The big libraries load first, as plain ES modules: through tsx's
// loader pdf.js alone takes seconds to load. Then the TypeScript extractor, through tsx.
import { parentPort } from 'node:worker_threads';
import 'pdfjs-dist/legacy/build/pdf.mjs';
import 'pdfjs-dist/legacy/build/pdf.worker.mjs';
import 'mammoth';
import { register } from 'tsx/esm/api';

register();
const { extractDocument } = await import('./extract.ts');
parentPort.postMessage({ ready: true });
parentPort.on('message', async ({ id, kind, bytes, limits }) => {
  try {
    parentPort.postMessage({ id, result: await extractDocument(kind, bytes, limits) });
  } catch (e) {
    parentPort.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
  }
});
