import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

export function OnlineTag({ online }: { online: 0 | 1 }) {
  const { t } = useTranslation();
  return (
    <Tag color={online === 1 ? 'green' : 'default'}>
      {online === 1 ? t('lists.online') : t('lists.offline')}
    </Tag>
  );
}

export function EnabledTag({ state }: { state: 0 | 1 }) {
  const { t } = useTranslation();
  return (
    <Tag color={state === 1 ? 'blue' : 'red'}>{state === 1 ? t('lists.enabled') : t('lists.disabled')}</Tag>
  );
}
