import { Alert, Button, Card, Descriptions, Skeleton } from 'antd';
import { MailOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { usePersonalInfo } from './personalQuery';
import { useSendActivation } from './useSendActivation';

/** An inactive customer's only view: where the activation mail goes and a button to send it. */
export default function CustomerActiveView() {
  const { t } = useTranslation();
  const personal = usePersonalInfo();
  const activation = useSendActivation();
  return (
    <Card title={t('views.customerActive')}>
      <Alert type="warning" showIcon title={t('personal.activateNotice')} style={{ marginBottom: 24 }} />
      {personal.data ? (
        <Descriptions column={1} style={{ maxWidth: 560, marginBottom: 16 }}>
          <Descriptions.Item label={t('personal.email')}>
            <span data-testid="activation-email">{personal.data.email}</span>
          </Descriptions.Item>
        </Descriptions>
      ) : (
        <Skeleton active paragraph={{ rows: 1 }} />
      )}
      <Button
        type="primary"
        icon={<MailOutlined />}
        loading={activation.sending}
        onClick={() => void activation.send()}
        data-testid="send-activation"
      >
        {activation.sentOnce ? t('personal.sendAgain') : t('personal.activateNow')}
      </Button>
      {activation.sendingModal}
    </Card>
  );
}
