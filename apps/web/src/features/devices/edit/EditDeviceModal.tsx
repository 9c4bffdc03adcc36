import { useMemo, useRef } from 'react';
import { Form, Input, Radio } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { device } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { schemaRule } from '../../../forms/schemaRule';
import { CONTRACT_NS } from '../../../i18n';
import { FormModal } from '../../../lists/FormModal';
import { LABELS_KEY, useLabels } from '../../labels/useLabels';
import { LabelInput, labelsRule, withPending } from './LabelInput';

interface EditDeviceValues {
  deviceName: string;
  labels: string[];
  remark?: string;
  location?: string;
  state: 0 | 1;
}

const fields = device.updateDevice.params.shape;

/** Edit device (spec 2 sections 2 and 5): name, labels, remark with its counter, location, state; the serial number is read-only. */
export function EditDeviceModal({
  row,
  onClose,
  onSaved,
}: {
  row: device.DeviceRow | undefined;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<EditDeviceValues>();
  const queryClient = useQueryClient();
  const { labels } = useLabels();
  const pending = useRef('');
  const rules = useMemo(() => {
    const translate = (key: string) => t(key, { ns: CONTRACT_NS });
    return {
      deviceName: [schemaRule(fields.deviceName, translate)],
      labels: [labelsRule(translate, pending)],
      remark: [schemaRule(fields.remark, translate)],
      location: [schemaRule(fields.location, translate)],
    };
  }, [t]);

  return (
    <FormModal<EditDeviceValues>
      title={t('devices.editTitle')}
      open={row !== undefined}
      form={form}
      width={560}
      initialValues={
        row && {
          deviceName: row.deviceName,
          labels: row.tag.split(device.TAG_SEPARATOR).filter(Boolean),
          remark: row.remark,
          location: row.location,
          state: row.state,
        }
      }
      submit={async (v) => {
        const reply = await call(device.updateDevice, {
          deviceId: row?.deviceId ?? 0,
          deviceName: v.deviceName,
          deviceKey: row?.deviceKey ?? '',
          tag: withPending(v.labels, pending.current).join(device.TAG_SEPARATOR),
          remark: v.remark?.trim() ?? '',
          location: v.location?.trim() ?? '',
          state: v.state === 1 ? '1' : '0',
        });
        pending.current = '';
        void queryClient.invalidateQueries({ queryKey: LABELS_KEY });
        return reply;
      }}
      onClose={() => {
        pending.current = '';
        onClose();
      }}
      onSaved={onSaved}
      testId="device-edit"
    >
      <Form.Item name="deviceName" label={t('devices.name')} rules={rules.deviceName} required>
        <Input data-testid="device-edit-name" />
      </Form.Item>
      <Form.Item label={t('devices.serial')}>
        <Input value={row?.deviceKey} disabled data-testid="device-edit-serial" />
      </Form.Item>
      <Form.Item
        name="labels"
        label={t('devices.labels')}
        rules={rules.labels}
        required
        extra={t('devices.labelsHint')}
      >
        <LabelInput
          known={labels.map((l) => l.groupName)}
          pending={pending}
          testId="device-edit-labels"
          placeholder={t('devices.labelsPlaceholder')}
        />
      </Form.Item>
      <Form.Item name="remark" label={t('devices.remark')} rules={rules.remark}>
        <Input.TextArea
          rows={3}
          showCount
          maxLength={device.DEVICE_REMARK_MAX}
          data-testid="device-edit-remark"
        />
      </Form.Item>
      <Form.Item name="location" label={t('devices.location')} rules={rules.location}>
        <Input data-testid="device-edit-location" />
      </Form.Item>
      <Form.Item name="state" label={t('devices.state')}>
        <Radio.Group
          data-testid="device-edit-state"
          options={[
            { value: 1, label: t('lists.enabled') },
            { value: 0, label: t('lists.disabled') },
          ]}
        />
      </Form.Item>
    </FormModal>
  );
}
