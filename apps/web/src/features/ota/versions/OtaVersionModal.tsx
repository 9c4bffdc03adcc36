import { Form, Input, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { ota } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { CONTRACT_NS } from '../../../i18n';
import { FormModal } from '../../../lists/FormModal';

type OtaVersion = ReturnType<typeof ota.otaVersion.parse>;

interface VersionValues {
  otaVersion: string;
  enable: '1' | '0';
}

/** Add (`null`) or edit an OTA version: its number (noneVersion when empty) and its enable flag. */
export function OtaVersionModal({
  version,
  onClose,
  onSaved,
}: {
  version: OtaVersion | null | undefined;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<VersionValues>();
  return (
    <FormModal<VersionValues>
      title={version ? t('ota.version.editTitle') : t('ota.version.addTitle')}
      open={version !== undefined}
      form={form}
      width={600}
      initialValues={version ? { otaVersion: version.otaVersion, enable: version.enable } : { enable: '1' }}
      submit={(v) => {
        const values = { otaVersion: v.otaVersion.trim(), enable: v.enable };
        return version
          ? call(ota.updateOtaVersion, { otaVersionId: version.otaVersionId, ...values })
          : call(ota.insertOtaVersion, values);
      }}
      onClose={onClose}
      onSaved={onSaved}
      testId="ota-version-form"
    >
      <Form.Item
        name="otaVersion"
        label={t('ota.version.otaVersion')}
        rules={[{ required: true, whitespace: true, message: t('noneVersion', { ns: CONTRACT_NS }) }]}
        required
      >
        <Input data-testid="ota-version-name" maxLength={64} />
      </Form.Item>
      <Form.Item name="enable" label={t('ota.version.enable')}>
        <Radio.Group
          data-testid="ota-version-enable"
          options={[
            { value: '1', label: t('lists.enabled') },
            { value: '0', label: t('lists.disabled') },
          ]}
        />
      </Form.Item>
    </FormModal>
  );
}
