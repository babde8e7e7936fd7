/**
 * Replacement values derived from the originals with a keyed hash (HMAC-SHA-256 over a secret made for one
 * upload and never stored): the same original gives the same replacement across every file of the upload, and
 * nobody without the secret can go back or test a guess.
 */
export class Pseudonymiser {
  private readonly key: ReturnType<typeof crypto.subtle.importKey>;
  private readonly cache = new Map<string, Promise<Uint8Array>>();

  constructor(secret: Uint8Array) {
    if (secret.length < 16) throw new Error('The de-identification secret must have at least 16 bytes.');
    this.key = crypto.subtle.importKey('raw', new Uint8Array(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
  }

  /** A fresh random secret for one upload. */
  static newSecret(): Uint8Array {
    return crypto.getRandomValues(new Uint8Array(32));
  }

  digest(purpose: string, original: string): Promise<Uint8Array> {
    const message = `${purpose}\u0000${original}`;
    let result = this.cache.get(message);
    if (!result) {
      result = this.key.then(
        async (key) => new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(message))),
      );
      this.cache.set(message, result);
    }
    return result;
  }

  /**
   * A new UID under 2.25 (PS3.5 B.2: a UUID as one decimal integer, no registered root needed): 128 bits of the
   * hash marked as a version 8 (custom) UUID of the RFC 9562 variant. At most 44 characters, within UI's 64.
   */
  async uid(original: string): Promise<string> {
    const bytes = (await this.digest('uid', original)).slice(0, 16);
    bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x80;
    bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
    let value = 0n;
    for (const b of bytes) value = (value << 8n) | BigInt(b);
    return `2.25.${value.toString()}`;
  }

  /** The patient's pseudonym, used as Patient ID and Patient's Name: "P" and 12 hexadecimal digits. */
  async patient(originalKey: string): Promise<string> {
    const bytes = await this.digest('patient', originalKey);
    return `P${[...bytes.slice(0, 6)]
      .map((b) => b.toString(16).padStart(2, '0'))
      .join('')
      .toUpperCase()}`;
  }

  /** The patient's date shift for the Modified Dates option: 365 to 3,649 days back. */
  async dateShiftDays(originalKey: string): Promise<number> {
    const bytes = await this.digest('dates', originalKey);
    const n = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0);
    return -(365 + (n % 3285));
  }
}

export const PSEUDONYM_PATTERN = /^P[0-9A-F]{12}$/;
export const GENERATED_UID_PATTERN = /^2\.25\.(0|[1-9][0-9]{0,38})$/;
