import { Alert, Modal, Spin, Steps, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import * as programs from '@panelfleet/contract/programs';
import { call } from '../../api/client';
import { SESSION_QUERY_KEY } from '../../app/queryClient';
import { formatDateTime } from '../../format/dateTime';
import { progressView } from './progress';

interface ApprovalStepsModalProps {
  program: programs.Program | undefined;
  onClose(): void;
}

/** The current approval round of a program as steps, with the display rules of spec 2 section 4. */
export function ApprovalStepsModal({ program, onClose }: ApprovalStepsModalProps) {
  const { t } = useTranslation();
  const steps = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'approvalSteps', program?.programId],
    queryFn: async () => (await call(programs.listApproval, { programId: program!.programId })).listObject,
    enabled: program !== undefined,
    staleTime: 0,
  });
  const view = steps.data ? progressView(steps.data) : undefined;
  return (
    <Modal
      open={program !== undefined}
      title={program ? t('programs.steps.title', { name: program.name }) : ''}
      onCancel={onClose}
      footer={null}
      width={720}
      destroyOnHidden
    >
      <div data-testid="program-steps-modal">
        {!view && <Spin />}
        {view?.kind === 'none' && (
          <Alert type="info" showIcon message={t('programs.steps.none')} data-testid="program-steps-none" />
        )}
        {view && view.kind !== 'none' && (
          <Steps
            direction="vertical"
            current={view.current}
            status={view.status}
            data-testid={`program-steps-${view.kind}`}
            items={view.items.map((item) => ({
              title: t(item.title),
              description: item.step && (
                <>
                  <Typography.Text strong>
                    {item.step.status === 1 && item.step.role !== '0'
                      ? t('programs.steps.passed')
                      : item.step.status === 0
                        ? t('programs.steps.refused')
                        : ''}
                  </Typography.Text>{' '}
                  {item.step.userName} · {formatDateTime(item.step.addTime)}
                  <br />
                  {item.step.reason}
                </>
              ),
            }))}
          />
        )}
      </div>
    </Modal>
  );
}
