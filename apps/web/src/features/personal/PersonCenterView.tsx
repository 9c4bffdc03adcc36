import { lazy, Suspense, useState } from 'react';
import { Avatar, Button, Card, Descriptions, Divider, Skeleton, Space, Tag, Typography } from 'antd';
import { CameraOutlined, EditOutlined, UserOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiTokensSection } from './apiTokens/ApiTokensSection';
import { AvatarModal } from './AvatarModal';
import { avatarUrl } from './avatarFile';
import { ChangePasswordForm } from './ChangePasswordForm';
import { EditPersonalModal } from './EditPersonalModal';
import { PERSONAL_QUERY_KEY, usePersonalInfo } from './personalQuery';
import { useSendActivation } from './useSendActivation';
import { withIdentityCatalogs } from '../identity/catalogs';

const PersonalSecurity = lazy(withIdentityCatalogs(() => import('../identity/PersonalSecurity')));

export default function PersonCenterView() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const personal = usePersonalInfo();
  const activation = useSendActivation();
  const [editing, setEditing] = useState(false);
  const [choosingAvatar, setChoosingAvatar] = useState(false);
  const [avatarStamp, setAvatarStamp] = useState(() => Date.now());
  const reload = () => void queryClient.invalidateQueries({ queryKey: PERSONAL_QUERY_KEY });

  const info = personal.data;
  return (
    <Card title={t('views.personCenter')}>
      {!info ? (
        <Skeleton active avatar paragraph={{ rows: 4 }} />
      ) : (
        <div
          style={{ display: 'flex', gap: 32, flexWrap: 'wrap', alignItems: 'flex-start' }}
          data-testid="personal-block"
        >
          <Space orientation="vertical" align="center">
            <Avatar
              size={120}
              shape="square"
              icon={<UserOutlined />}
              src={info.avatar ? avatarUrl(avatarStamp) : undefined}
              alt={t('personal.avatar')}
              data-testid="avatar-image"
            />
            <Button
              size="small"
              icon={<CameraOutlined />}
              onClick={() => setChoosingAvatar(true)}
              data-testid="avatar-edit"
            >
              {t('personal.changeAvatar')}
            </Button>
          </Space>
          <Descriptions
            column={1}
            style={{ flex: 1, minWidth: 320, maxWidth: 640 }}
            styles={{ label: { width: 160 } }}
          >
            <Descriptions.Item label={t('personal.userName')}>{info.userName}</Descriptions.Item>
            <Descriptions.Item label={t('personal.companyName')}>{info.companyName}</Descriptions.Item>
            <Descriptions.Item label={t('personal.email')}>{info.email}</Descriptions.Item>
            <Descriptions.Item label={t('personal.phone')}>{info.phone}</Descriptions.Item>
            <Descriptions.Item label={t('personal.state')}>
              <Space>
                <Tag color={info.state === 1 ? 'green' : 'orange'} data-testid="activation-state">
                  {info.state === 1 ? t('personal.activated') : t('personal.notActivated')}
                </Tag>
                {info.state === 0 && (
                  <Typography.Link onClick={() => void activation.send()} data-testid="activate-now">
                    {t('personal.activateNow')}
                  </Typography.Link>
                )}
              </Space>
            </Descriptions.Item>
          </Descriptions>
          <Button icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="personal-edit-open">
            {t('personal.edit')}
          </Button>
          <EditPersonalModal
            open={editing}
            userId={info.userId}
            current={{ email: info.email, phone: info.phone }}
            onClose={() => setEditing(false)}
            onSaved={reload}
          />
        </div>
      )}
      <Divider titlePlacement="start">{t('personal.changePassword')}</Divider>
      <ChangePasswordForm />
      {info?.state === 1 && (
        <div id="api-tokens">
          <Divider titlePlacement="start">{t('apiTokens.title')}</Divider>
          <ApiTokensSection />
        </div>
      )}
      <Suspense fallback={null}>
        <PersonalSecurity />
      </Suspense>
      <AvatarModal
        open={choosingAvatar}
        onClose={() => setChoosingAvatar(false)}
        onSaved={() => {
          setAvatarStamp(Date.now());
          reload();
        }}
      />
      {activation.sendingModal}
    </Card>
  );
}
