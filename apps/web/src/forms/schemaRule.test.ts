import { describe, expect, it } from 'vitest';
import { auth } from '@panelfleet/contract';
import { schemaRule } from './schemaRule';

const translate = (key: string) => `T(${key})`;

describe('schemaRule', () => {
  const username = schemaRule(auth.login.params.shape.username, translate);

  it('rejects with the translated contract message', async () => {
    await expect(username.validator({}, undefined)).rejects.toThrow('T(login.nameNull)');
    await expect(username.validator({}, '   ')).rejects.toThrow('T(login.nameNull)');
    await expect(username.validator({}, 'x'.repeat(65))).rejects.toThrow('T(common.tooLong)');
  });

  it('accepts a valid value', async () => {
    await expect(username.validator({}, 'admin')).resolves.toBeUndefined();
  });

  it('validates what will be sent when given a conversion', async () => {
    const password = schemaRule(auth.login.params.shape.password, translate, (v) =>
      v ? 'a'.repeat(32) : '',
    );
    await expect(password.validator({}, '')).rejects.toThrow('T(login.passwordNull)');
    await expect(password.validator({}, 'secret1')).resolves.toBeUndefined();
  });
});
