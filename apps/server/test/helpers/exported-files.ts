import { Uint8ArrayReader, Uint8ArrayWriter, ZipReader } from '@zip.js/zip.js';

/**
 * Every file of a ZIP the server exports (the audit bundle, the design history file) by its name; PDFs are read with
 * the repository's test/helpers/pdf-text.ts.
 */
export async function unzipFiles(bytes: Uint8Array): Promise<Map<string, Uint8Array>> {
  const reader = new ZipReader(new Uint8ArrayReader(bytes));
  const files = new Map<string, Uint8Array>();
  for (const entry of await reader.getEntries())
    if (!entry.directory) files.set(entry.filename, await entry.getData(new Uint8ArrayWriter()));
  await reader.close();
  return files;
}
