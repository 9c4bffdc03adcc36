import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { ChangePasswordForm } from './ChangePasswordForm';

export default function ModifyPasswordView() {
  const { t } = useTranslation();
  return (
    <Card title={t('views.modifyPassword')}>
      <ChangePasswordForm />
    </Card>
  );
}
