import { Alert, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** A webhook's signing secret, shown this once (on creation and after a rotation), with copy. */
export function SecretModal({ secret, onClose }: { secret: string | undefined; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={secret !== undefined}
      title={t('alerts.webhook.secretTitle')}
      onCancel={onClose}
      onOk={onClose}
      okText={t('common.ok')}
      cancelButtonProps={{ style: { display: 'none' } }}
      maskClosable={false}
      destroyOnHidden
    >
      <Alert type="warning" showIcon message={t('alerts.webhook.secretOnce')} style={{ marginBottom: 16 }} />
      <Typography.Paragraph
        copyable={{ text: secret, tooltips: [t('alerts.webhook.copy'), t('alerts.webhook.copied')] }}
      >
        <Typography.Text code data-testid="webhook-secret">
          {secret}
        </Typography.Text>
      </Typography.Paragraph>
    </Modal>
  );
}
