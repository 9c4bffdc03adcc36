import { useMemo, useRef } from 'react';
import { Form, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { device } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { CONTRACT_NS } from '../../../i18n';
import { FormModal } from '../../../lists/FormModal';
import { LABELS_KEY, useLabels } from '../../labels/useLabels';
import { LabelInput, labelsRule, withPending } from './LabelInput';

interface EditLabelsValues {
  labels: string[];
}

/**
 * Edit tags of the selected devices: they get exactly the chosen labels. Typed names that are
 * not labels yet are created first (POST group/insert), then saveGroupsAndDevices.
 */
export function EditLabelsModal({
  devices,
  open,
  onClose,
  onSaved,
}: {
  devices: device.DeviceRow[];
  open: boolean;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<EditLabelsValues>();
  const queryClient = useQueryClient();
  const { labels } = useLabels();
  const pending = useRef('');
  const rules = useMemo(() => [labelsRule((key) => t(key, { ns: CONTRACT_NS }), pending)], [t]);
  const shared = devices.length
    ? devices
        .map((d) => d.tag.split(device.TAG_SEPARATOR).filter(Boolean))
        .reduce((common, tags) => common.filter((name) => tags.includes(name)))
    : [];

  const save = async (values: EditLabelsValues) => {
    const names = withPending(values.labels, pending.current);
    const ids = new Map(labels.map((l) => [l.groupName, l.groupId]));
    for (const name of names) {
      if (!ids.has(name))
        ids.set(name, (await call(device.insertGroup, { groupName: name })).dataObject.groupId);
    }
    const reply = await call(device.saveGroupsAndDevices, {
      deviceIds: devices.map((d) => d.deviceId).join(','),
      groupIds: names.map((name) => ids.get(name)!).join(','),
    });
    pending.current = '';
    await queryClient.invalidateQueries({ queryKey: LABELS_KEY });
    return reply;
  };

  return (
    <FormModal<EditLabelsValues>
      title={t('devices.editLabelsTitle')}
      open={open}
      form={form}
      width={560}
      initialValues={{ labels: shared }}
      submit={save}
      onClose={() => {
        pending.current = '';
        onClose();
      }}
      onSaved={onSaved}
      testId="labels-edit"
    >
      <Typography.Paragraph type="secondary" data-testid="labels-edit-count">
        {t('devices.editLabelsFor', {
          count: devices.length,
          names:
            devices
              .slice(0, 5)
              .map((d) => d.deviceName)
              .join(', ') + (devices.length > 5 ? ' …' : ''),
        })}
      </Typography.Paragraph>
      <Form.Item
        name="labels"
        label={t('devices.labels')}
        rules={rules}
        required
        extra={t('devices.labelsHint')}
      >
        <LabelInput
          known={labels.filter((l) => !l.dynamic).map((l) => l.groupName)}
          pending={pending}
          testId="labels-edit-input"
          placeholder={t('devices.labelsPlaceholder')}
        />
      </Form.Item>
    </FormModal>
  );
}
