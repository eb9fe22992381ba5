// Authenticated encryption (AES-256-GCM) for secrets at rest, such as provider tokens.
// Stored form: `v1.<iv>.<tag>.<ciphertext>`, base64url parts.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('ENCRYPTION_KEY must decode to 32 bytes (base64 or hex)');
    this.#key = key;
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
  }

  /** A key of its own for another purpose (e.g. signing URLs), derived with HKDF so the keys never coincide. */
  deriveKey(purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.#key, Buffer.alloc(0), purpose, 32));
  }

  open(sealed: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}

function decodeKey(text: string): Buffer {
  const trimmed = text.trim();
  return /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
}

/** The configured key, or one generated once into `<dataDir>/encryption-key` and reused after. */
export async function loadSecretBox(configuredKey: string | undefined, dataDir: string): Promise<SecretBox> {
  if (configuredKey) return new SecretBox(decodeKey(configuredKey));
  const path = join(dataDir, 'encryption-key');
  const existing = await readFile(path, 'utf8').catch(() => undefined);
  if (existing) return new SecretBox(decodeKey(existing));
  await mkdir(dataDir, { recursive: true });
  const key = randomBytes(32);
  await writeFile(path, key.toString('base64'), { mode: 0o600, flag: 'wx' }).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  return new SecretBox(decodeKey(await readFile(path, 'utf8')));
}
