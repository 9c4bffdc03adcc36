import { useRef } from 'react';
import { Form, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { device, settings } from '@panelfleet/contract';
import { call } from '../../api/client';
import { FormModal } from '../../lists/FormModal';
import { useSettingNames } from './names';

interface AddSettingModalProps {
  /** '0' add template (choose series), '1' add source (system, series, source). */
  type: '0' | '1' | undefined;
  onClose(): void;
  /** The new entry, saved with its defaults: its editor opens. */
  onAdded(row: settings.SettingRow): void;
}

interface Values {
  series: device.Series;
  platform?: device.PanelSystem;
  sourceType?: device.SourceType;
}

/** Add template (series) or add source (system, series, and a source that series has). */
export function AddSettingModal({ type, onClose, onAdded }: AddSettingModalProps) {
  const { t } = useTranslation();
  const names = useSettingNames();
  const [form] = Form.useForm<Values>();
  const series = Form.useWatch('series', form) ?? 'x9_vn';
  const added = useRef<settings.SettingRow>(undefined);
  const isSource = type === '1';

  return (
    <FormModal<Values>
      title={t(isSource ? 'settingPage.addSourceTitle' : 'settingPage.addTemplateTitle')}
      open={type !== undefined}
      form={form}
      initialValues={{ series: 'x9_vn', platform: 'android', sourceType: 'front' }}
      testId={isSource ? 'add-source' : 'add-template'}
      submit={async (values) => {
        const reply = await call(settings.addSetting, { type: type ?? '0', ...values });
        added.current = reply.dataObject;
        return reply;
      }}
      onClose={onClose}
      onSaved={() => added.current && onAdded(added.current)}
    >
      {isSource && (
        <Form.Item name="platform" label={t('settingPage.chooseSystem')} rules={[{ required: true }]}>
          <Radio.Group
            data-testid="add-source-system"
            options={device.SYSTEMS.map((s) => ({
              value: s,
              label: <span data-system={s}>{names.system(s)}</span>,
            }))}
          />
        </Form.Item>
      )}
      <Form.Item name="series" label={t('settingPage.chooseSeries')} rules={[{ required: true }]}>
        <Radio.Group
          data-testid="add-series"
          onChange={(e) => {
            const next = e.target.value as device.Series;
            const source = form.getFieldValue('sourceType') as device.SourceType | undefined;
            if (source && !device.sourceTypesOf(next).includes(source))
              form.setFieldValue('sourceType', 'front');
          }}
          options={device.SERIES.map((s) => ({ value: s, label: <span data-series={s}>{s}</span> }))}
        />
      </Form.Item>
      {isSource && (
        <Form.Item name="sourceType" label={t('settingPage.chooseSource')} rules={[{ required: true }]}>
          <Select
            style={{ width: 200 }}
            data-testid="add-source-type"
            options={device.sourceTypesOf(series).map((s) => ({ value: s, label: names.source(s) }))}
          />
        </Form.Item>
      )}
    </FormModal>
  );
}
