import { describe, expect, it } from 'vitest';
import { insertUser, updateQuota } from './calls/accounts.js';

const firstError = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.success ? undefined : result.error!.issues[0]!.message;

describe('account rules a newcomer meets', () => {
  const user = (userName: string) =>
    insertUser.params.safeParse({
      userName,
      password: 'e10adc3949ba59abbe56e057f20f883e',
      phone: '13800000000',
      email: 'a@example.com',
    });

  it('takes user names in any letters, Chinese included, with the width-counted limit', () => {
    for (const name of ['张三', 'Émile.o', 'operator_1', 'ivan@школа', 'a-b', '李'.repeat(16)])
      expect({ name, error: firstError(user(name)) }).toEqual({ name, error: undefined });
    expect(firstError(user('李'.repeat(17)))).toBe('common.tooLong');
    for (const name of ['a b', 'a/b', 'x;y', '张 三'])
      expect({ name, error: firstError(user(name)) }).toEqual({ name, error: 'register.userNameRule' });
  });

  it('takes a quota of up to six digits and says what is wrong otherwise', () => {
    expect(updateQuota.params.parse({ customerUserNumberId: '3', userNumber: '123456' }).userNumber).toBe(
      123456,
    );
    expect(updateQuota.params.parse({ customerUserNumberId: '3', userNumber: '0012' }).userNumber).toBe(12);
    const quota = (userNumber: string) =>
      firstError(updateQuota.params.safeParse({ customerUserNumberId: '3', userNumber }));
    expect(quota('1234567')).toBe('customerManage.quotaMax');
    expect(quota('12a')).toBe('customerManage.requireNumbers');
    expect(quota('-5')).toBe('customerManage.requireNumbers');
    expect(quota('1.5')).toBe('customerManage.requireNumbers');
  });
});
