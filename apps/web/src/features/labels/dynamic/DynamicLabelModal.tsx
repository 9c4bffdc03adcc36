import { useEffect, useState } from 'react';
import { Alert, Divider, Form, Input, InputNumber, Select, Space, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { device } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { FormModal } from '../../../lists/FormModal';
import { LABELS_KEY, useLabels } from '../useLabels';
import { fromFilter, hasCondition, toFilter, type FilterFormValues } from './filterForm';

/** How long the builder waits after the last change before it asks for the live count. */
const COUNT_DELAY_MS = 400;

type Label = ReturnType<typeof useLabels>['labels'][number];

/** "N panels match": the server counts the filter as the user builds it. */
function useLiveCount(filter: device.LabelFilter, enabled: boolean) {
  const [count, setCount] = useState<number | undefined>();
  const [failed, setFailed] = useState(false);
  const key = JSON.stringify(filter);
  useEffect(() => {
    if (!enabled || !hasCondition(filter)) {
      setCount(undefined);
      return;
    }
    const abort = new AbortController();
    const timer = setTimeout(() => {
      call(device.countGroupFilter, { filter }, { json: true, quietFail: true, signal: abort.signal })
        .then((reply) => {
          setFailed(false);
          setCount(reply.dataObject.count);
        })
        .catch(() => {
          // A filter the server refuses (a field still being typed) shows no count, not an error.
          if (!abort.signal.aborted) {
            setFailed(true);
            setCount(undefined);
          }
        });
    }, COUNT_DELAY_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
    // The filter is compared by its JSON.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, enabled]);
  return { count, failed };
}

/**
 * Create or edit a dynamic label: a label whose panels are those its filter matches (machine
 * type, firmware, an installed app, online, last seen, region, name or serial pattern, other
 * labels), with the live number of panels that match.
 */
export function DynamicLabelModal({
  open,
  editing,
  onClose,
  onSaved,
}: {
  open: boolean;
  /** The dynamic label being edited; undefined for a new one. */
  editing?: Label;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FilterFormValues>();
  const queryClient = useQueryClient();
  const { labels } = useLabels();
  const values = Form.useWatch([], form) ?? {};
  const filter = toFilter(values);
  const { count, failed } = useLiveCount(filter, open);
  const others = labels
    .filter((l) => l.groupId !== editing?.groupId)
    .map((l) => ({ value: l.groupId, label: l.groupName }));
  const initialValues: FilterFormValues = editing?.filter
    ? fromFilter(editing.groupName, editing.filter)
    : { online: 'any', lastSeen: 'any', lastSeenMinutes: 60 };

  const submit = async (v: FilterFormValues) => {
    const reply = await call(
      device.saveDynamicGroup,
      { groupId: editing?.groupId, groupName: v.groupName ?? '', filter: toFilter(v) },
      { json: true },
    );
    await queryClient.invalidateQueries({ queryKey: LABELS_KEY });
    return reply;
  };
  const f = (key: string) => t(`labels.filter.${key}`);

  return (
    <FormModal<FilterFormValues>
      title={editing ? t('labels.dynamic.editTitle') : t('labels.dynamic.newTitle')}
      open={open}
      form={form}
      width={720}
      initialValues={initialValues}
      submit={submit}
      onClose={onClose}
      onSaved={onSaved}
      testId="dynamic-label"
    >
      <Form.Item
        name="groupName"
        label={t('labels.dynamic.name')}
        rules={[{ required: true, message: t('labels.dynamic.nameNull') }]}
      >
        <Input maxLength={32} data-testid="dynamic-label-name" />
      </Form.Item>
      <Typography.Paragraph type="secondary">{t('labels.dynamic.hint')}</Typography.Paragraph>
      {!hasCondition(filter) ? (
        <Alert
          type="info"
          showIcon
          message={t('labels.dynamic.noCondition')}
          data-testid="dynamic-label-count"
        />
      ) : failed ? (
        <Alert
          type="warning"
          showIcon
          message={t('labels.dynamic.countFailed')}
          data-testid="dynamic-label-count"
        />
      ) : (
        <Alert
          type="success"
          showIcon
          data-testid="dynamic-label-count"
          data-count={count ?? ''}
          message={
            count === undefined ? t('labels.dynamic.counting') : t('labels.dynamic.matching', { count })
          }
        />
      )}
      <Divider style={{ margin: '12px 0' }} />
      <Form.Item name="machineTypes" label={f('machineTypes')}>
        <Select mode="tags" tokenSeparators={[',']} open={false} data-testid="dynamic-label-machine-types" />
      </Form.Item>
      <Form.Item name="versions" label={f('versions')}>
        <Select mode="tags" tokenSeparators={[',']} open={false} data-testid="dynamic-label-versions" />
      </Form.Item>
      <Form.Item label={f('versionRange')}>
        <Space>
          <Form.Item name="versionMin" noStyle>
            <Input placeholder={f('from')} style={{ width: 140 }} data-testid="dynamic-label-version-min" />
          </Form.Item>
          <span>–</span>
          <Form.Item name="versionMax" noStyle>
            <Input placeholder={f('to')} style={{ width: 140 }} data-testid="dynamic-label-version-max" />
          </Form.Item>
        </Space>
      </Form.Item>
      <Form.Item label={f('app')}>
        <Space>
          <Form.Item name="packageName" noStyle>
            <Input
              placeholder={f('packageName')}
              style={{ width: 240 }}
              data-testid="dynamic-label-package"
            />
          </Form.Item>
          <Form.Item name="appVersion" noStyle>
            <Input
              placeholder={f('appVersion')}
              style={{ width: 120 }}
              data-testid="dynamic-label-app-version"
            />
          </Form.Item>
        </Space>
      </Form.Item>
      <Form.Item name="online" label={f('online')}>
        <Select
          style={{ width: 160 }}
          data-testid="dynamic-label-online"
          options={[
            { value: 'any', label: f('any') },
            { value: 'online', label: f('isOnline') },
            { value: 'offline', label: f('isOffline') },
          ]}
        />
      </Form.Item>
      <Form.Item label={f('lastSeen')}>
        <Space>
          <Form.Item name="lastSeen" noStyle>
            <Select
              style={{ width: 200 }}
              data-testid="dynamic-label-last-seen"
              options={[
                { value: 'any', label: f('any') },
                { value: 'within', label: f('within') },
                { value: 'notWithin', label: f('notWithin') },
              ]}
            />
          </Form.Item>
          <Form.Item name="lastSeenMinutes" noStyle>
            <InputNumber
              min={1}
              max={525600}
              precision={0}
              addonAfter={f('minutes')}
              style={{ width: 160 }}
            />
          </Form.Item>
        </Space>
      </Form.Item>
      <Form.Item label={f('region')}>
        <Space>
          <Form.Item name="country" noStyle>
            <Input placeholder={f('country')} style={{ width: 180 }} data-testid="dynamic-label-country" />
          </Form.Item>
          <Form.Item name="province" noStyle>
            <Input placeholder={f('province')} style={{ width: 180 }} data-testid="dynamic-label-province" />
          </Form.Item>
        </Space>
      </Form.Item>
      <Form.Item name="namePattern" label={f('namePattern')} extra={f('patternHint')}>
        <Input data-testid="dynamic-label-name-pattern" />
      </Form.Item>
      <Form.Item name="serialPattern" label={f('serialPattern')}>
        <Input data-testid="dynamic-label-serial-pattern" />
      </Form.Item>
      <Form.Item name="hasLabels" label={f('hasLabels')}>
        <Select mode="multiple" options={others} optionFilterProp="label" data-testid="dynamic-label-has" />
      </Form.Item>
      <Form.Item name="notLabels" label={f('notLabels')}>
        <Select mode="multiple" options={others} optionFilterProp="label" data-testid="dynamic-label-not" />
      </Form.Item>
    </FormModal>
  );
}
