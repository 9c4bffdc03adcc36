import { useTranslation } from 'react-i18next';
import { accounts, identity } from '@panelfleet/contract';
import { call } from '../../api/client';
import { RowAction } from '../../lists/RowActions';
import { useConfirmAction } from '../../lists/useConfirmAction';

/**
 * What whoever manages a user may do about the user's way in, each after a confirmation: a new
 * password, the second factor removed, every session ended (all logged by the server).
 */
export function AccessActions({
  user,
  onDone,
}: {
  user: { userId: number; userName: string };
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const action = (
    label: string,
    testId: string,
    question: string,
    run: () => Promise<{ hhtMsg?: string }>,
  ) => (
    <RowAction
      label={t(label)}
      testId={testId}
      onClick={() => confirm(t(question, { name: user.userName }), run, onDone)}
    />
  );
  return (
    <>
      {action('accounts.resetPassword', 'row-reset-password', 'accounts.resetConfirm', () =>
        call(accounts.userResetPassword, { userId: user.userId }),
      )}
      {action(
        'accounts.resetSecondFactor',
        'row-reset-second-factor',
        'accounts.resetSecondFactorConfirm',
        () => call(identity.resetUserSecondFactor, { userId: user.userId }),
      )}
      {action('accounts.endSessions', 'row-end-sessions', 'accounts.endSessionsConfirm', () =>
        call(identity.endUserSessions, { userId: user.userId }),
      )}
    </>
  );
}
