import { describe, expect, it } from 'vitest';
import { SecretSealer } from '../src/security/sealed.js';

// The one sealing piece (security/sealed.ts) every module uses: TOTP secrets, identity providers'
// client secrets and refresh tokens, webhook signing secrets.
describe('the secret sealer', () => {
  const pepper = 'a-pepper-of-the-deployment-0123456789';

  it('opens what it sealed, and a sealed value shows nothing of the secret', () => {
    const sealer = new SecretSealer(pepper, 'sso client secrets');
    const sealed = sealer.seal('very-secret-client-secret');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('very-secret');
    expect(sealer.seal('very-secret-client-secret')).not.toBe(sealed);
    expect(sealer.open(sealed)).toBe('very-secret-client-secret');
  });

  it('does not open a secret sealed for another purpose or under another pepper, nor a changed one', () => {
    const sealed = new SecretSealer(pepper, 'sso refresh tokens').seal('refresh-token');
    expect(() => new SecretSealer(pepper, 'totp secrets').open(sealed)).toThrow();
    expect(() => new SecretSealer(`${pepper}x`, 'sso refresh tokens').open(sealed)).toThrow();
    const [version, iv, tag, body] = sealed.split('.');
    const flipped = `${body!.startsWith('A') ? 'B' : 'A'}${body!.slice(1)}`;
    expect(() =>
      new SecretSealer(pepper, 'sso refresh tokens').open([version, iv, tag, flipped].join('.')),
    ).toThrow();
    expect(() => new SecretSealer(pepper, 'sso refresh tokens').open('not sealed')).toThrow(
      /not a sealed secret/,
    );
  });
});
