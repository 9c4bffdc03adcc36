import { Divider } from 'antd';
import { useTranslation } from 'react-i18next';
import { SecondFactorCard } from './SecondFactorCard';
import { SessionsCard } from './SessionsCard';

/** The personal centre's security part: the second factor and the sessions (loaded with its strings). */
export default function PersonalSecurity() {
  const { t } = useTranslation();
  return (
    <>
      <Divider titlePlacement="start">{t('identity.factor.title')}</Divider>
      <SecondFactorCard />
      <Divider titlePlacement="start">{t('identity.sessions.title')}</Divider>
      <SessionsCard />
    </>
  );
}
