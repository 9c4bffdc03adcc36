import { Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { materials } from '@panelfleet/contract';
import { materialFileUrl } from './useAudioMaterials';

interface AudioPreviewModalProps {
  material: materials.Material | undefined;
  onClose(): void;
}

/** Plays an uploaded audio in the browser; closing the dialog stops it (the element goes away). */
export function AudioPreviewModal({ material, onClose }: AudioPreviewModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      title={t('notice.previewTitle')}
      open={material !== undefined}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      modalRender={(node) => <div data-testid="audio-preview">{node}</div>}
    >
      {material && (
        <>
          <Typography.Paragraph ellipsis={{ tooltip: material.fileName }}>
            {material.fileName}
          </Typography.Paragraph>
          <audio
            key={material.materialId}
            src={materialFileUrl(material.materialId)}
            controls
            autoPlay
            preload="auto"
            style={{ width: '100%' }}
            data-testid="audio-player"
          >
            {t('notice.audioUnsupported')}
          </audio>
        </>
      )}
    </Modal>
  );
}
