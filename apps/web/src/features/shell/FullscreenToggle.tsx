import { useEffect, useState } from 'react';
import { Button } from 'antd';
import { FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

export function FullscreenToggle({ color }: { color: string }) {
  const { t } = useTranslation();
  const [full, setFull] = useState(() => document.fullscreenElement !== null);

  useEffect(() => {
    const sync = () => setFull(document.fullscreenElement !== null);
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, []);

  const toggle = () => {
    const change = full ? document.exitFullscreen() : document.documentElement.requestFullscreen();
    // The browser may refuse (no user gesture, iframe policy); the button then simply stays as it is.
    change.catch(() => undefined);
  };

  return (
    <Button
      type="text"
      data-testid="fullscreen-toggle"
      aria-pressed={full}
      title={t(full ? 'shell.exitFullscreen' : 'shell.fullscreen')}
      icon={full ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
      onClick={toggle}
      style={{ color }}
    />
  );
}
