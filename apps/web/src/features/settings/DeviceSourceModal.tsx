import { useEffect, useState } from 'react';
import { Alert, App, Form, Modal, Select, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { device, settings } from '@panelfleet/contract';
import { alreadyReported, call } from '../../api/client';
import { NOTICE_SECONDS } from '../../api/ReplyEffects';
import { testHook } from '../../lists/FormModal';
import { useResetOnOpen } from '../../lists/useResetOnOpen';
import { useSettingNames } from './names';
import { PictureEditor } from './PictureEditor';

type Reported = Awaited<ReturnType<typeof readPictures>>;
const readPictures = (deviceId: number, signal: AbortSignal) =>
  call(settings.listDeviceSourceSetting, { deviceId }, { signal });

interface DeviceSourceModalProps {
  open: boolean;
  deviceId: number;
  deviceName: string;
  /** The panel's current input, chosen first when the series has it. */
  currentSource: string | null;
  onClose(): void;
  onPushed(pushId: number): void;
}

/**
 * The device detail's "source setting (HDMI front)" dialog: one input of this panel, its picture
 * as the panel reports it (Image settings, Display settings); OK sends the picture to the panel.
 */
export function DeviceSourceModal(props: DeviceSourceModalProps) {
  const { open, deviceId, deviceName, currentSource, onClose, onPushed } = props;
  const { t } = useTranslation();
  const { message } = App.useApp();
  const names = useSettingNames();
  const [reported, setReported] = useState<Reported>();
  const [source, setSource] = useState<device.SourceType>();
  const [picture, setPicture] = useState<device.PictureSetting>();
  const [sending, setSending] = useState(false);
  useResetOnOpen(open, () => {
    setReported(undefined);
    setSource(undefined);
    setPicture(undefined);
  });

  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    readPictures(deviceId, controller.signal).then(
      (reply) => {
        setReported(reply);
        const inputs = reply.series ? device.sourceTypesOf(reply.series) : [];
        const first =
          inputs.find((s) => s === currentSource) ?? (inputs.includes('front') ? 'front' : inputs[0]);
        if (first) choose(reply, first);
      },
      (error: unknown) => alreadyReported(error),
    );
    return () => controller.abort();
    // The dialog reads the panel's pictures once per opening.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, deviceId]);

  const choose = (from: Reported, input: device.SourceType) => {
    setSource(input);
    setPicture(
      from.listObject.find((p) => p.sourceType === input)?.picture ?? device.defaultPictureSetting(),
    );
  };

  const send = async () => {
    if (!source || !picture) return;
    setSending(true);
    try {
      const reply = await call(settings.updateDeviceSourceSetting, {
        deviceId,
        sourceType: source,
        jsonData: JSON.stringify(picture),
      });
      void message.success(reply.hhtMsg || t('common.done'), NOTICE_SECONDS);
      onClose();
      onPushed(reply.dataObject.pushId);
    } catch (error) {
      alreadyReported(error);
    } finally {
      setSending(false);
    }
  };

  const inputs = reported?.series ? device.sourceTypesOf(reported.series) : [];
  const notReported = reported && source && !reported.listObject.some((p) => p.sourceType === source);
  return (
    <Modal
      title={t('savedSettings.deviceSourceTitle', { source: names.source(source) })}
      open={open}
      width={720}
      onOk={() => void send()}
      onCancel={onClose}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={sending}
      okButtonProps={{ disabled: !picture, ...testHook('device-source-ok') }}
      mask={{ closable: false }}
      destroyOnHidden
      modalRender={(node) => <div data-testid="device-source">{node}</div>}
    >
      {!reported ? (
        <Spin />
      ) : !reported.series ? (
        <Alert type="info" showIcon title={t('savedSettings.noSeries')} />
      ) : (
        <>
          <Typography.Paragraph type="secondary">
            {t('savedSettings.deviceSourceHint', { name: deviceName })}
          </Typography.Paragraph>
          <Form layout="inline" style={{ marginBottom: 8 }}>
            <Form.Item label={t('settingPage.source')}>
              <Select
                style={{ width: 180 }}
                value={source}
                onChange={(s) => choose(reported, s)}
                data-testid="device-source-input"
                options={inputs.map((s) => ({ value: s, label: names.source(s) }))}
              />
            </Form.Item>
            <Form.Item label={t('settingPage.system')}>
              <Typography.Text>{names.system(reported.system)}</Typography.Text>
            </Form.Item>
          </Form>
          {notReported && (
            <Alert type="info" showIcon title={t('savedSettings.notReported')} style={{ marginBottom: 8 }} />
          )}
          {picture && <PictureEditor value={picture} onChange={setPicture} />}
        </>
      )}
    </Modal>
  );
}
