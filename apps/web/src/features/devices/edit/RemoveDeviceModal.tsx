import { Alert, Form, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { device } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { FormModal } from '../../../lists/FormModal';

interface RemoveValues {
  keepHistory: '1' | '0';
}

/**
 * Remove a panel (issue 25 item 13): a confirmation that asks whether what the panel reported
 * (reports, OTA log, abnormal logs) is kept or deleted with it. Either way the panel's access ends.
 */
export function RemoveDeviceModal({
  row,
  onClose,
  onRemoved,
}: {
  row: device.DeviceRow | undefined;
  onClose(): void;
  onRemoved(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RemoveValues>();
  return (
    <FormModal<RemoveValues>
      title={t('devices.removeTitle', { name: row?.deviceName ?? '' })}
      open={row !== undefined}
      form={form}
      width={560}
      initialValues={{ keepHistory: '1' }}
      submit={(v) => call(device.removeDevice, { deviceId: row?.deviceId ?? 0, keepHistory: v.keepHistory })}
      onClose={onClose}
      onSaved={onRemoved}
      testId="device-remove"
    >
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        title={t('devices.removeWarning', { serial: row?.deviceKey ?? '' })}
      />
      <Form.Item name="keepHistory" label={t('devices.removeHistory')}>
        <Radio.Group data-testid="device-remove-history">
          <Radio value="1" data-testid="device-remove-keep">
            {t('devices.removeKeep')}
          </Radio>
          <Radio value="0" data-testid="device-remove-delete">
            {t('devices.removeDelete')}
          </Radio>
        </Radio.Group>
      </Form.Item>
    </FormModal>
  );
}
