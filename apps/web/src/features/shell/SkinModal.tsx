import { Modal, Typography } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { usePreferences } from '../../app/Preferences';
import { SKINS } from './skins';

/** The choice applies at once, so the user sees it before closing. */
export function SkinModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { skin, setSkin } = usePreferences();
  return (
    <Modal open={open} title={t('shell.skinTitle')} footer={null} onCancel={onClose} width={520}>
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(5, 1fr)', gap: 16, padding: '8px 0' }}>
        {SKINS.map(({ id, color }) => (
          <button
            key={id}
            type="button"
            data-skin={id}
            aria-pressed={skin.id === id}
            onClick={() => setSkin(id)}
            style={{ border: 'none', background: 'none', cursor: 'pointer', padding: 0, textAlign: 'center' }}
          >
            <span
              style={{
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'center',
                width: 48,
                height: 48,
                margin: '0 auto 6px',
                borderRadius: '50%',
                background: color,
                color: '#fff',
                fontSize: 20,
                boxShadow: skin.id === id ? `0 0 0 3px #fff, 0 0 0 5px ${color}` : undefined,
              }}
            >
              {skin.id === id && <CheckOutlined />}
            </span>
            <Typography.Text style={{ fontSize: 12 }}>{t(`skins.${id}`)}</Typography.Text>
          </button>
        ))}
      </div>
    </Modal>
  );
}
