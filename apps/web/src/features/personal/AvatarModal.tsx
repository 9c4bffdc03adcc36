import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { App, Button, Modal, Slider, Space, Typography } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import Cropper, { type Area } from 'react-easy-crop';
import { useTranslation } from 'react-i18next';
import { accounts } from '@panelfleet/contract';
import { alreadyReported, upload } from '../../api/client';
import { NOTICE_SECONDS } from '../../api/ReplyEffects';
import { CONTRACT_NS } from '../../i18n';
import {
  AVATAR_ACCEPT,
  AVATAR_EXTENSIONS,
  AVATAR_SIZE,
  isAllowedAvatarName,
  isWithinMaxSide,
} from './avatarFile';
import { canvasToJpeg, cropToCanvas, loadImage } from './cropCanvas';

interface AvatarModalProps {
  open: boolean;
  onClose(): void;
  onSaved(): void;
}

interface Picked {
  url: string;
  image: HTMLImageElement;
}

/** Pick an image, move and zoom it under a 150x150 box, see the result, upload it as jpg. */
export function AvatarModal({ open, onClose, onSaved }: AvatarModalProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const input = useRef<HTMLInputElement>(null);
  const [picked, setPicked] = useState<Picked>();
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [area, setArea] = useState<Area>();
  const [preview, setPreview] = useState<string>();
  const [saving, setSaving] = useState(false);

  useEffect(
    () => () => {
      if (picked) URL.revokeObjectURL(picked.url);
    },
    [picked],
  );
  useEffect(() => {
    if (picked && area) setPreview(cropToCanvas(picked.image, area).toDataURL('image/jpeg'));
  }, [picked, area]);

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!isAllowedAvatarName(file.name)) {
      window.alert(t('personal.avatarTypes', { types: AVATAR_EXTENSIONS.join(', ') }));
      return;
    }
    const url = URL.createObjectURL(file);
    const image = await loadImage(url).catch((error: unknown) => {
      URL.revokeObjectURL(url);
      window.alert(t('personal.avatarUnreadable'));
      console.error(error);
      return undefined;
    });
    if (!image) return;
    if (!isWithinMaxSide(image.naturalWidth, image.naturalHeight)) {
      URL.revokeObjectURL(url);
      window.alert(t('personal.avatarTooLarge', { ns: CONTRACT_NS }));
      return;
    }
    setCrop({ x: 0, y: 0 });
    setZoom(1);
    setArea(undefined);
    setPreview(undefined);
    setPicked({ url, image });
  };

  const close = () => {
    setPicked(undefined);
    setPreview(undefined);
    onClose();
  };

  const save = async () => {
    if (!picked || !area) return;
    setSaving(true);
    try {
      const body = new FormData();
      body.append('file', await canvasToJpeg(cropToCanvas(picked.image, area)), 'avatar.jpg');
      const reply = await upload(accounts.uploadAvatar, body);
      void message.success(reply.hhtMsg || t('common.done'), NOTICE_SECONDS);
      close();
      onSaved();
    } catch (error) {
      alreadyReported(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title={t('personal.avatarTitle')}
      open={open}
      width={640}
      onCancel={close}
      onOk={() => void save()}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !picked, loading: saving }}
      destroyOnHidden
      modalRender={(node) => <div data-testid="avatar-modal">{node}</div>}
    >
      <input
        ref={input}
        type="file"
        accept={AVATAR_ACCEPT}
        hidden
        onChange={(event) => void choose(event)}
        data-testid="avatar-file"
      />
      <Space style={{ marginBottom: 12 }}>
        <Button icon={<UploadOutlined />} onClick={() => input.current?.click()}>
          {t('personal.chooseImage')}
        </Button>
        <Typography.Text type="secondary">
          {t('personal.avatarHint', { types: AVATAR_EXTENSIONS.join(', ') })}
        </Typography.Text>
      </Space>
      <div style={{ display: 'flex', gap: 16 }}>
        <div
          style={{
            position: 'relative',
            flex: 1,
            height: 300,
            background: '#333',
            borderRadius: 6,
            overflow: 'hidden',
          }}
        >
          {picked && (
            <Cropper
              image={picked.url}
              crop={crop}
              zoom={zoom}
              aspect={1}
              cropSize={{ width: AVATAR_SIZE, height: AVATAR_SIZE }}
              onCropChange={setCrop}
              onZoomChange={setZoom}
              onCropComplete={(_, pixels) => setArea(pixels)}
            />
          )}
        </div>
        <div style={{ width: AVATAR_SIZE, textAlign: 'center' }}>
          <Typography.Text type="secondary">{t('personal.preview')}</Typography.Text>
          <div
            style={{
              width: AVATAR_SIZE,
              height: AVATAR_SIZE,
              marginTop: 8,
              border: '1px solid #d9d9d9',
              borderRadius: 6,
              overflow: 'hidden',
              background: '#fafafa',
            }}
          >
            {preview && (
              <img
                src={preview}
                alt={t('personal.preview')}
                width={AVATAR_SIZE}
                height={AVATAR_SIZE}
                data-testid="avatar-preview"
              />
            )}
          </div>
        </div>
      </div>
      <div style={{ display: 'flex', alignItems: 'center', gap: 12, marginTop: 12 }}>
        <Typography.Text>{t('personal.zoom')}</Typography.Text>
        <Slider
          min={1}
          max={4}
          step={0.05}
          value={zoom}
          onChange={setZoom}
          disabled={!picked}
          style={{ flex: 1, maxWidth: 300 }}
        />
      </div>
    </Modal>
  );
}
