// Secrets at rest: provider tokens sealed with AES-256-GCM, passwords with scrypt, keys by digest.
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SecretBox, loadSecretBox } from '../../src/crypto/secretBox.ts';
import { hashPassword, verifyPassword } from '../../src/access/passwords.ts';
import { digestSecret, newSecret } from '../../src/access/secrets.ts';

describe('SecretBox', () => {
  it('round-trips, never stores the plaintext, and detects tampering or another key', () => {
    const box = new SecretBox(randomBytes(32));
    const sealed = box.seal('{"accessToken":"abc123"}');
    expect(sealed).not.toContain('abc123');
    expect(box.seal('same')).not.toBe(box.seal('same'));
    expect(box.open(sealed)).toBe('{"accessToken":"abc123"}');
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => box.open(tampered)).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
  });

  it('generates a key once into the data folder and reuses it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sps-key-'));
    const first = await loadSecretBox(undefined, dir);
    const second = await loadSecretBox(undefined, dir);
    expect(second.open(first.seal('x'))).toBe('x');
    expect(Buffer.from(await readFile(join(dir, 'encryption-key'), 'utf8'), 'base64')).toHaveLength(32);
    expect(() => new SecretBox(randomBytes(16))).toThrow(/32 bytes/);
  });
});

describe('passwords and keys', () => {
  it('hash passwords with scrypt and verify them', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('wrong horse', stored)).toBe(false);
    expect(await verifyPassword('anything', null)).toBe(false);
  });

  it('make keys with 256 random bits and store only their digest', () => {
    const key = newSecret('sps');
    expect(key).toMatch(/^sps_[\w-]{43}$/);
    expect(digestSecret(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(digestSecret(key)).not.toContain(key.slice(4));
  });
});
