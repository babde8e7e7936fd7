import { pictureProblem, pictureSignatureBytes } from '@insilico/contracts';

/** What the file dialog offers; a file picked anyway ("All files") is still checked by its bytes. */
export const pictureFileAccept = 'image/jpeg,image/png,.jpg,.jpeg,.png';

/**
 * The spec §5 message a picture breaks, checked before it is sent: the size, and the JPEG/PNG
 * signature of its first bytes (the same rule the server applies; the server also decodes it).
 */
export async function pictureFileProblem(file: Blob): Promise<string | null> {
  const head = new Uint8Array(await file.slice(0, pictureSignatureBytes).arrayBuffer());
  return pictureProblem(file.size, head)?.message ?? null;
}

/** A picture URL of the API at the given size (`?size=thumb` for avatars and previews). */
export function pictureAtSize(url: string, size: 'thumb' | 'full'): string {
  const parsed = new URL(url, 'http://x');
  parsed.searchParams.set('size', size);
  return `${parsed.pathname}${parsed.search}`;
}
