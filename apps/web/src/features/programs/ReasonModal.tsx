import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import * as programs from '@panelfleet/contract/programs';
import { call } from '../../api/client';
import { CONTRACT_NS } from '../../i18n';
import { FormModal } from '../../lists/FormModal';
import { defaultPassReason } from './progress';

export type ReasonAction = 'submit' | 'pass' | 'refuse';

interface ReasonModalProps {
  action: { kind: ReasonAction; program: programs.Program } | undefined;
  onClose(): void;
  onSaved(): void;
}

const TITLES: Record<ReasonAction, string> = {
  submit: 'programs.reason.submitTitle',
  pass: 'programs.reason.passTitle',
  refuse: 'programs.reason.refuseTitle',
};

/** Submit, pass or refuse with a reason (required, at most 200 characters); a pass proposes the spec's text. */
export function ReasonModal({ action, onClose, onSaved }: ReasonModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  const program = action?.program;
  const initial =
    action?.kind === 'pass' && program ? { reason: t(defaultPassReason(program.status)) } : { reason: '' };
  return (
    <FormModal<{ reason: string }>
      key={action ? `${action.kind}-${action.program.programId}` : 'closed'}
      title={action && program ? t(TITLES[action.kind], { name: program.name }) : ''}
      open={action !== undefined}
      form={form}
      initialValues={initial}
      testId={`program-${action?.kind ?? 'reason'}-modal`}
      onClose={onClose}
      onSaved={onSaved}
      submit={({ reason }) =>
        call(programs.approvalProcess, {
          programId: program!.programId,
          status: action!.kind === 'refuse' ? '0' : '1',
          reason,
        })
      }
    >
      <Form.Item
        name="reason"
        label={t('programs.reason.label')}
        rules={[
          { required: true, whitespace: true, message: t('program.reasonNull', { ns: CONTRACT_NS }) },
          { max: programs.REASON_MAX, message: t('program.reasonTooLong', { ns: CONTRACT_NS }) },
        ]}
      >
        <Input.TextArea rows={4} maxLength={programs.REASON_MAX} showCount data-testid="program-reason" />
      </Form.Item>
    </FormModal>
  );
}
