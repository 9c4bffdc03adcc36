import { useState } from 'react';
import { App, Modal, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { accounts } from '@panelfleet/contract';
import { ApiError, call } from '../../api/client';

/** Sends the activation mail again: a sending-e-mail modal while it runs, then the server's message. */
export function useSendActivation() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const [sending, setSending] = useState(false);
  const [sentOnce, setSentOnce] = useState(false);

  const send = async () => {
    setSending(true);
    try {
      const reply = await call(accounts.sendActivationEmail, {}, { quietFail: true });
      setSentOnce(true);
      modal.success({ title: t('common.tips'), content: reply.hhtMsg, okText: t('common.ok') });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // Only a fail reply is left to us (quietFail); the others went to the error pages.
      if (error.kind === 'fail')
        modal.error({ title: t('common.tips'), content: error.hhtMsg, okText: t('common.ok') });
    } finally {
      setSending(false);
    }
  };

  const sendingModal = (
    <Modal
      open={sending}
      title={t('personal.sendingTitle')}
      closable={false}
      mask={{ closable: false }}
      footer={null}
    >
      <div
        data-testid="sending-email"
        style={{ display: 'flex', alignItems: 'center', gap: 16, padding: '16px 0' }}
      >
        <Spin />
        <span>{t('personal.sending')}</span>
      </div>
    </Modal>
  );
  return { send, sending, sentOnce, sendingModal };
}
