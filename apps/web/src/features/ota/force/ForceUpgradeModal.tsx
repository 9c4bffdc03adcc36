import { useEffect, useState } from 'react';
import { App, DatePicker, Form, Modal, Switch, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ota } from '@panelfleet/contract';
import { alreadyReported, call } from '../../../api/client';
import { NOTICE_SECONDS } from '../../../api/ReplyEffects';
import { CONTRACT_NS } from '../../../i18n';
import { testHook } from '../../../lists/FormModal';
import { homeView } from '../../../paths';
import { PanelPicker } from '../../labels/PanelPicker';
import { usePanelPicker } from '../../labels/usePanelPicker';
import { WAVE_INITIAL, WaveFields, type WaveValues } from './WaveFields';
import { useRevalidateOnLanguageChange } from '../../../forms/useRevalidateOnLanguageChange';

interface ForceValues extends WaveValues {
  timeEnable: boolean;
  upgradeTime?: Dayjs;
}

/**
 * Force upgrade (spec 3 section 2.1): labels with select all, every panel of them that the file
 * fits (5 a page) and how many it does not, an optional timed start, and waves. Stays open on a fail reply; on success the
 * task list opens.
 */
export function ForceUpgradeModal({ file, onClose }: { file: ota.OtaFile | undefined; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<ForceValues>();
  useRevalidateOnLanguageChange(form);
  const [saving, setSaving] = useState(false);
  const open = file !== undefined;
  const timed = Form.useWatch<boolean>('timeEnable', form);
  const picker = usePanelPicker({ open, otaFileId: file?.id });
  const { labels, ticked } = picker;
  useEffect(() => {
    if (open) form.resetFields();
    // Only when the dialog opens for a file.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, file?.id]);

  const submit = async (v: ForceValues) => {
    if (!ticked.length) {
      void message.warning(
        t(labels.length ? 'upgrade.nullLabel' : 'upgrade.noLabel', { ns: CONTRACT_NS }),
        NOTICE_SECONDS,
      );
      return;
    }
    setSaving(true);
    try {
      const when = v.timeEnable && v.upgradeTime ? v.upgradeTime.second(0) : undefined;
      const reply = await call(ota.forceUpdate, {
        tagIds: ticked.join(','),
        otaFileId: file!.id,
        timeEnable: v.timeEnable ? '1' : '0',
        upgradeTime: when?.format('YYYY-MM-DD HH:mm:00'),
        utcOffset: (when ?? dayjs()).utcOffset(),
        waveMode: v.waveMode,
        firstWave: v.waveMode === 'none' ? undefined : v.firstWave,
        waveStep: v.waveMode === 'none' ? undefined : v.waveStep,
        successShare: v.successShare,
        failureShare: v.failureShare,
        minResults: v.minResults,
        allowDowngrade: v.allowDowngrade ? '1' : '0',
        keepAdding: v.keepAdding ? '1' : '0',
        maxDownloads: v.maxDownloads ?? undefined,
      });
      const made = reply.dataObject;
      void message.success(
        t('ota.force.created', {
          count: made.deviceCount,
          skipped: made.skippedCount,
          waves: made.waveCount,
        }),
        NOTICE_SECONDS,
      );
      onClose();
      void navigate(homeView('renew'));
    } catch (error) {
      alreadyReported(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title={t('ota.force.title', { name: file ? `${file.fileName} (${file.otaVersion})` : '' })}
      open={open}
      width={850}
      onCancel={onClose}
      okText={t('ota.force.submit')}
      cancelText={t('common.cancel')}
      okButtonProps={{ htmlType: 'submit', loading: saving, ...testHook('force-ok') }}
      destroyOnHidden
      modalRender={(node) => (
        <Form<ForceValues>
          form={form}
          layout="horizontal"
          labelCol={{ span: 5 }}
          wrapperCol={{ span: 18 }}
          initialValues={{ ...WAVE_INITIAL, timeEnable: false }}
          onFinish={(values) => void submit(values)}
        >
          <div data-testid="force-upgrade">{node}</div>
        </Form>
      )}
    >
      <Form.Item label={t('ota.force.labels')} required extra={t('ota.force.devicesHint')}>
        <PanelPicker picker={picker} choose={false} testIdPrefix="force" pageSize={5} />
      </Form.Item>
      <Form.Item name="timeEnable" label={t('ota.force.timed')} valuePropName="checked">
        <Switch data-testid="force-timed" />
      </Form.Item>
      {timed && (
        <Form.Item
          name="upgradeTime"
          label={t('ota.force.upgradeTime')}
          rules={[{ required: true, message: t('ota.upgradeTimeNull', { ns: CONTRACT_NS }) }]}
          required
        >
          <DatePicker
            data-testid="force-upgrade-time"
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            disabledDate={(day) => day.isBefore(dayjs().startOf('day'))}
          />
        </Form.Item>
      )}
      <WaveFields />
      <Typography.Text type="secondary">{t('ota.force.note')}</Typography.Text>
    </Modal>
  );
}
