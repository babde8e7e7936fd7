import type { BlobStore, DataRegion, StoredBlob } from '../../src/repositories/blob.repository';

/** A store's `list` gathered: every file under the prefix, and their keys and sizes sorted by key. */
export async function listed(
  store: BlobStore,
  region: DataRegion,
  prefix: string,
): Promise<{ files: StoredBlob[]; sizes: { key: string; bytes: number }[] }> {
  const files: StoredBlob[] = [];
  for await (const file of store.list(region, prefix)) files.push(file);
  const sizes = files.map(({ key, bytes }) => ({ key, bytes })).sort((a, b) => a.key.localeCompare(b.key));
  return { files, sizes };
}
