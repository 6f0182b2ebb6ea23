// The document worker's entry. The big libraries load first, as plain ES modules: through tsx's
// loader pdf.js alone takes seconds to load. Then the extractor: from the build when the process
// runs built (shared/build.js), else the TypeScript through tsx's ES module loader.
import { parentPort } from 'node:worker_threads';
import 'pdfjs-dist/legacy/build/pdf.mjs';
import 'pdfjs-dist/legacy/build/pdf.worker.mjs';
import 'mammoth';
import { threadModule } from '../../../shared/thread-module.js';

const extract = threadModule(new URL('./extract.ts', import.meta.url));
if (extract.pathname.endsWith('.ts')) (await import('tsx/esm/api')).register();
const { extractDocument } = await import(extract.href);
parentPort.postMessage({ ready: true });
parentPort.on('message', async ({ id, kind, bytes, limits }) => {
  try {
    parentPort.postMessage({ id, result: await extractDocument(kind, bytes, limits) });
  } catch (e) {
    parentPort.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
  }
});
