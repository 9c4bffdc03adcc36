import { useMemo } from 'react';
import { Alert, Form, Input, Radio, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { machineTypes } from '@panelfleet/contract';
import { call } from '../../api/client';
import { SESSION_QUERY_KEY } from '../../app/queryClient';
import { schemaRule } from '../../forms/schemaRule';
import { CONTRACT_NS } from '../../i18n';
import { FormModal } from '../../lists/FormModal';

type MachineType = machineTypes.MachineType;

interface MachineTypeValues {
  machineType: string;
  enable: '1' | '0';
  /** In the order chosen: the order of the panel's source switch. */
  inputSourceIds: number[];
}

/**
 * Add (`null`) or edit a machine type and choose its input sources. While devices refer to it,
 * its name and state are locked (the server refuses a change too).
 */
export function MachineTypeModal({
  machineType,
  onClose,
  onSaved,
}: {
  machineType: MachineType | null | undefined;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<MachineTypeValues>();
  const open = machineType !== undefined;
  const inputs = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'inputSources'],
    queryFn: () => call(machineTypes.listInputSources, {}),
    enabled: open,
    staleTime: 0,
  });
  const rules = useMemo(
    () => [schemaRule(machineTypes.machineTypeNameField, (key) => t(key, { ns: CONTRACT_NS }))],
    [t],
  );
  const locked = (machineType?.referenceCount ?? 0) > 0;

  const submit = (v: MachineTypeValues) => {
    const values = {
      machineType: v.machineType.trim(),
      enable: v.enable,
      inputSourceIds: v.inputSourceIds.join(','),
    };
    return machineType
      ? call(machineTypes.updateMachineType, { machineTypeId: machineType.machineTypeId, ...values })
      : call(machineTypes.insertMachineType, values);
  };

  return (
    <FormModal<MachineTypeValues>
      title={machineType ? t('machineTypes.edit') : t('machineTypes.add')}
      open={open}
      form={form}
      width={600}
      initialValues={
        machineType
          ? {
              machineType: machineType.machineType,
              enable: machineType.enable,
              inputSourceIds: machineType.inputSources.map((s) => s.inputSourceId),
            }
          : { enable: '1', inputSourceIds: [] }
      }
      submit={submit}
      onClose={onClose}
      onSaved={onSaved}
      testId="machine-type-form"
    >
      {locked && (
        <Alert
          data-testid="machine-type-locked"
          type="warning"
          showIcon
          title={t('machineTypes.locked', { count: machineType?.referenceCount })}
          style={{ marginBottom: 16 }}
        />
      )}
      <Form.Item name="machineType" label={t('machineTypes.name')} rules={locked ? [] : rules} required>
        <Input data-testid="machine-type-name" disabled={locked} maxLength={64} />
      </Form.Item>
      <Form.Item name="enable" label={t('machineTypes.state')}>
        <Radio.Group
          data-testid="machine-type-state"
          disabled={locked}
          options={[
            { value: '1', label: t('lists.enabled') },
            { value: '0', label: t('lists.disabled') },
          ]}
        />
      </Form.Item>
      <Form.Item
        name="inputSourceIds"
        label={t('machineTypes.inputSources')}
        extra={t('machineTypes.inputSourcesHint')}
      >
        <Select<number[]>
          data-testid="machine-type-sources"
          mode="multiple"
          allowClear
          loading={inputs.isFetching}
          placeholder={t('machineTypes.chooseSources')}
          optionFilterProp="label"
          options={(inputs.data?.listObject ?? []).map((s) => ({
            value: s.id,
            label: `${s.name} (${s.sourceKey})`,
          }))}
        />
      </Form.Item>
    </FormModal>
  );
}
