import { useState } from 'react';
import { App, Button, ColorPicker, Form, Input, InputNumber, Modal, Radio, Space, Typography } from 'antd';
import { SoundOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { notifications, textWidth, truncateToWidth, type materials } from '@panelfleet/contract';
import { alreadyReported, call } from '../../api/client';
import { NOTICE_SECONDS } from '../../api/ReplyEffects';
import { schemaRule } from '../../forms/schemaRule';
import { CONTRACT_NS } from '../../i18n';
import { testHook } from '../../lists/FormModal';
import { AudioListModal } from './AudioListModal';
import { DeliveryProgress } from './DeliveryProgress';
import {
  AUDIO_CHOICES,
  NOTICE_DEFAULTS,
  toSendParams,
  type NoticeFormValues,
  type NoticeTarget,
} from './noticeForm';
import { useRevalidateOnLanguageChange } from '../../forms/useRevalidateOnLanguageChange';

export interface SendNotificationModalProps {
  /** One device, or the devices of these labels. */
  target: NoticeTarget;
  open: boolean;
  onClose(): void;
  /** Where the sent notification's delivery is followed; by default a notice in the corner. */
  onSent?(sent: { commandIds: string[]; title: string }): void;
}

const COLOR_PRESETS = [
  '#000000',
  '#ffffff',
  '#f5222d',
  '#fa8c16',
  '#fadb14',
  '#52c41a',
  '#1677ff',
  '#722ed1',
];
const COUNTED_BY_WIDTH = {
  show: true,
  max: notifications.NOTICE_TITLE_MAX_WIDTH,
  strategy: textWidth,
  exceedFormatter: (text: string) => truncateToWidth(text, notifications.NOTICE_TITLE_MAX_WIDTH),
};
const COUNTED_BY_LENGTH = {
  show: true,
  max: notifications.NOTICE_TEXT_MAX,
  strategy: (text: string) => text.length,
  exceedFormatter: (text: string) => text.slice(0, notifications.NOTICE_TEXT_MAX),
};

/**
 * The send-notification dialog of spec 2: emergency (a voice or a custom uploaded audio) or
 * ordinary (top or bottom, play count), title in width units, content, colour. A fail reply keeps
 * it open; after a success it closes and a notice follows the panels' acknowledgements.
 */
export function SendNotificationModal({ target, open, onClose, onSent }: SendNotificationModalProps) {
  const { t } = useTranslation();
  const { message, notification } = App.useApp();
  const [form] = Form.useForm<NoticeFormValues>();
  useRevalidateOnLanguageChange(form);
  const level = Form.useWatch('level', form) ?? NOTICE_DEFAULTS.level;
  const audio = Form.useWatch('audio', form) ?? NOTICE_DEFAULTS.audio;
  const [material, setMaterial] = useState<materials.Material>();
  const [choosingAudio, setChoosingAudio] = useState(false);
  const [sending, setSending] = useState(false);
  const contractMessage = (key: string) => t(key, { ns: CONTRACT_NS });
  const customAudio =
    level === notifications.NOTICE_LEVELS.emergency && audio === notifications.NOTICE_AUDIO.custom;

  const close = () => {
    setMaterial(undefined);
    onClose();
  };

  const send = async (values: NoticeFormValues) => {
    if (customAudio && !material) {
      void message.warning(contractMessage('notice.chooseAudio'), NOTICE_SECONDS);
      return;
    }
    setSending(true);
    try {
      const reply = await call(notifications.sendMessage, toSendParams(values, target, material?.materialId));
      void message.success(reply.hhtMsg || t('common.done'), NOTICE_SECONDS);
      if (onSent) onSent({ commandIds: reply.dataObject.commandIds, title: values.title });
      else
        notification.info({
          key: reply.dataObject.commandIds[0],
          title: t('notice.deliveryTitle', { title: values.title }),
          description: <DeliveryProgress commandIds={reply.dataObject.commandIds} />,
          duration: 0,
          placement: 'bottomRight',
        });
      close();
    } catch (error) {
      alreadyReported(error);
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal
      title={t('notice.title')}
      open={open}
      width={620}
      onCancel={close}
      okText={t('notice.send')}
      cancelText={t('common.cancel')}
      okButtonProps={{ htmlType: 'submit', loading: sending, ...testHook('notice-send') }}
      mask={{ closable: false }}
      destroyOnHidden
      modalRender={(node) => (
        <Form<NoticeFormValues>
          form={form}
          layout="horizontal"
          labelCol={{ span: 5 }}
          wrapperCol={{ span: 18 }}
          initialValues={NOTICE_DEFAULTS}
          clearOnDestroy
          onFinish={(values) => void send(values)}
        >
          <div data-testid="notice-modal">{node}</div>
        </Form>
      )}
    >
      <Form.Item
        name="title"
        label={t('notice.titleLabel')}
        rules={[schemaRule(notifications.noticeTitle, contractMessage)]}
        required
      >
        <Input
          count={COUNTED_BY_WIDTH}
          placeholder={t('notice.titlePlaceholder')}
          data-testid="notice-title"
        />
      </Form.Item>
      <Form.Item
        name="text"
        label={t('notice.textLabel')}
        rules={[schemaRule(notifications.noticeText, contractMessage)]}
        required
      >
        <Input.TextArea
          count={COUNTED_BY_LENGTH}
          rows={4}
          placeholder={t('notice.textPlaceholder')}
          data-testid="notice-text"
        />
      </Form.Item>
      <Form.Item name="level" label={t('notice.level')}>
        <Radio.Group data-testid="notice-level">
          <Radio value={notifications.NOTICE_LEVELS.emergency} data-testid="notice-level-emergency">
            {t('notice.emergency')}
          </Radio>
          <Radio value={notifications.NOTICE_LEVELS.ordinary} data-testid="notice-level-ordinary">
            {t('notice.ordinary')}
          </Radio>
        </Radio.Group>
      </Form.Item>
      {level === notifications.NOTICE_LEVELS.emergency ? (
        <>
          <Form.Item name="audio" label={t('notice.audio')}>
            <Radio.Group>
              {AUDIO_CHOICES.map((choice) => (
                <Radio key={choice.value} value={choice.value} data-testid={`notice-audio-${choice.value}`}>
                  {t(choice.key)}
                </Radio>
              ))}
            </Radio.Group>
          </Form.Item>
          {customAudio && (
            <Form.Item label={t('notice.customAudio')} required>
              <Space>
                <Button
                  icon={<SoundOutlined />}
                  onClick={() => setChoosingAudio(true)}
                  data-testid="notice-choose-audio"
                >
                  {t('notice.chooseAudioButton')}
                </Button>
                <Typography.Text
                  type={material ? undefined : 'secondary'}
                  ellipsis
                  style={{ maxWidth: 260 }}
                  data-testid="notice-chosen-audio"
                >
                  {material ? material.fileName : t('notice.noAudioChosen')}
                </Typography.Text>
              </Space>
            </Form.Item>
          )}
        </>
      ) : (
        <>
          <Form.Item name="position" label={t('notice.position')}>
            <Radio.Group>
              <Radio value="top" data-testid="notice-position-top">
                {t('notice.top')}
              </Radio>
              <Radio value="bottom" data-testid="notice-position-bottom">
                {t('notice.bottom')}
              </Radio>
            </Radio.Group>
          </Form.Item>
          <Form.Item
            name="times"
            label={t('notice.times')}
            rules={[
              {
                validator: async (_, value: unknown) => {
                  if (!(typeof value === 'number' && value > 0))
                    throw new Error(contractMessage('notice.timesInvalid'));
                },
              },
            ]}
          >
            <InputNumber
              min={1}
              max={notifications.NOTICE_MAX_TIMES}
              precision={0}
              data-testid="notice-times"
            />
          </Form.Item>
        </>
      )}
      <Form.Item
        name="color"
        label={t('notice.color')}
        getValueFromEvent={(value: { toHexString(): string }) => value.toHexString()}
      >
        <ColorPicker
          disabledAlpha
          format="hex"
          presets={[{ label: t('notice.colorPresets'), colors: COLOR_PRESETS }]}
          showText
        />
      </Form.Item>
      <AudioListModal
        open={choosingAudio}
        chosenId={material?.materialId}
        onChoose={setMaterial}
        onChosenDeleted={() => setMaterial(undefined)}
        onClose={() => setChoosingAudio(false)}
      />
    </Modal>
  );
}
