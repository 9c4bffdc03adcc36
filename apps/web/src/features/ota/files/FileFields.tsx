import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { truncateToWidth } from '@panelfleet/contract';
import { CONTRACT_NS } from '../../../i18n';
import { useFileOptions } from './useFileOptions';

/** What the upload and edit dialogs send besides the file. */
export interface FileFieldValues {
  fitMachineTypeId: number[];
  fitOtaVersionId?: number[];
  otaRuleId?: number;
  remarkFileName?: string;
}

/** Machine types it fits, versions it installs over, policy and remark: shared by upload and edit. */
export function FileFields({ open }: { open: boolean }) {
  const { t } = useTranslation();
  const options = useFileOptions(open);
  return (
    <>
      <Form.Item
        name="fitMachineTypeId"
        label={t('ota.file.fitMachineType')}
        rules={[{ required: true, message: t('ota.machineTypeNull', { ns: CONTRACT_NS }) }]}
        required
      >
        <Select
          mode="multiple"
          data-testid="ota-file-machine-types"
          options={options.machineTypes}
          optionFilterProp="label"
          placeholder={t('ota.file.chooseMachineTypes')}
        />
      </Form.Item>
      <Form.Item
        name="fitOtaVersionId"
        label={t('ota.file.fitOtaVersion')}
        extra={t('ota.file.fitOtaVersionHint')}
      >
        <Select
          mode="multiple"
          allowClear
          data-testid="ota-file-from-versions"
          options={options.versions}
          optionFilterProp="label"
        />
      </Form.Item>
      <Form.Item name="otaRuleId" label={t('ota.file.rule')}>
        <Select allowClear data-testid="ota-file-rule" options={options.rules} optionFilterProp="label" />
      </Form.Item>
      <Form.Item
        name="remarkFileName"
        label={t('ota.file.remark')}
        normalize={(v: string) => truncateToWidth(v ?? '', 200)}
      >
        <Input.TextArea data-testid="ota-file-remark" rows={3} />
      </Form.Item>
    </>
  );
}
