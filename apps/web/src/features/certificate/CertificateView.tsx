import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Empty, Space, Spin, Tag, Typography } from 'antd';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { certificate } from '@panelfleet/contract';
import { call } from '../../api/client';
import { SESSION_QUERY_KEY } from '../../app/queryClient';
import { formatDateTime } from '../../format/dateTime';
import { expiryOf } from './expiry';
import { UpdateCertificateModal } from './UpdateCertificateModal';

const EXPIRY_COLORS = { valid: 'success', soon: 'warning', expired: 'error' } as const;

/**
 * View `certificate` (spec 2, user type 1): the certificate the panels of this distributor's
 * customers trust for the platform's addresses — its name, subject, issuer, validity and
 * fingerprint, how many panels hold it — with a warning before it expires, and Update.
 */
export default function CertificateView() {
  const { t } = useTranslation();
  const [updating, setUpdating] = useState(false);
  const query = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'certificate'],
    queryFn: () => call(certificate.queryCertificate, {}),
    // While panels are still taking the certificate, their count is read again every 5 s.
    refetchInterval: (q) => {
      const data = q.state.data?.dataObject;
      return data && data.panelsHolding < data.panelCount ? 5000 : false;
    },
  });
  const info = query.data?.dataObject;
  const expiry = info ? expiryOf(info.validTo, Date.now()) : undefined;

  const update = (
    <Button
      type="primary"
      icon={<SafetyCertificateOutlined />}
      onClick={() => setUpdating(true)}
      data-testid="certificate-update"
    >
      {t('certificatePage.update')}
    </Button>
  );

  let body;
  if (!query.data) body = <Spin />;
  else if (!info) body = <Empty description={t('certificatePage.none')} data-testid="certificate-none" />;
  else
    body = (
      <Space orientation="vertical" style={{ width: '100%' }} size="middle">
        {expiry?.state === 'soon' && (
          <Alert
            type="warning"
            showIcon
            data-testid="certificate-warning"
            title={t('certificatePage.warnSoon', { date: formatDateTime(info.validTo) })}
          />
        )}
        {expiry?.state === 'expired' && (
          <Alert
            type="error"
            showIcon
            data-testid="certificate-warning"
            title={t('certificatePage.warnExpired', { date: formatDateTime(info.validTo) })}
          />
        )}
        <Descriptions
          column={1}
          bordered
          size="small"
          styles={{ label: { width: 220 } }}
          data-testid="certificate-info"
        >
          <Descriptions.Item label={t('certificatePage.name')}>
            <Typography.Text strong data-testid="certificate-name-value">
              {info.certificateName}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('certificatePage.subject')}>
            <span data-testid="certificate-subject">{info.subject}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('certificatePage.issuer')}>
            <span data-testid="certificate-issuer">{info.issuer}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('certificatePage.validFrom')}>
            {formatDateTime(info.validFrom)}
          </Descriptions.Item>
          <Descriptions.Item label={t('certificatePage.validTo')}>
            <Space>
              <span data-testid="certificate-expiry">{formatDateTime(info.validTo)}</span>
              {expiry && (
                <Tag
                  color={EXPIRY_COLORS[expiry.state]}
                  data-testid="certificate-expiry-state"
                  data-state={expiry.state}
                >
                  {expiry.state === 'expired'
                    ? t('certificatePage.expired')
                    : t(expiry.state === 'soon' ? 'certificatePage.expiresSoon' : 'certificatePage.valid', {
                        days: expiry.days,
                      })}
                </Tag>
              )}
            </Space>
          </Descriptions.Item>
          <Descriptions.Item label={t('certificatePage.fingerprint')}>
            <Typography.Text code copyable style={{ fontSize: 12 }} data-testid="certificate-fingerprint">
              {info.fingerprint}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('certificatePage.chain')}>{info.chainLength}</Descriptions.Item>
          <Descriptions.Item label={t('certificatePage.uploaded')}>
            {t('certificatePage.uploadedBy', {
              time: formatDateTime(info.uploadTime),
              user: info.uploadedBy,
            })}
          </Descriptions.Item>
          <Descriptions.Item label={t('certificatePage.panels')}>
            <span data-testid="certificate-panels">
              {t('certificatePage.panelsOf', { holding: info.panelsHolding, total: info.panelCount })}
            </span>
          </Descriptions.Item>
        </Descriptions>
      </Space>
    );

  return (
    <Card title={t('views.certificate')} extra={update}>
      {body}
      <UpdateCertificateModal
        open={updating}
        onClose={() => setUpdating(false)}
        onSaved={() => void query.refetch()}
      />
    </Card>
  );
}
