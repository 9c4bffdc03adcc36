import { useState } from 'react';
import { App, Button, Tag, Typography, type TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import * as programs from '@panelfleet/contract/programs';
import type { device } from '@panelfleet/contract';
import { selectionParams } from '../labels/pickerRules';
import { alreadyReported, call } from '../../api/client';
import { NOTICE_SECONDS } from '../../api/ReplyEffects';
import { formatDateTime } from '../../format/dateTime';
import { ListToolbar } from '../../lists/ListToolbar';
import { operationsColumn, PagedTable, RowAction } from '../../lists/RowActions';
import { useConfirmAction } from '../../lists/useConfirmAction';
import { usePagedList } from '../../lists/usePagedList';
import { normalizeProgramRole, PROGRAM_ROLE_KEY } from '../auth/programRole';
import { TerminalListModal } from '../devices/detail/TerminalListModal';
import { ApprovalStepsModal } from './ApprovalStepsModal';
import { PreviewModal } from './PreviewModal';
import { PublishTasksModal } from './PublishTasksModal';
import { ProgramEditorModal } from './ProgramEditorModal';
import { allowedActions } from './progress';
import { ReasonModal, type ReasonAction } from './ReasonModal';
import { ZipImportButton } from './ZipImport';

type Program = programs.Program;

const STATUS_COLORS: Record<programs.ProgramStatus, string> = {
  create: 'default',
  submitApproval: 'processing',
  approval1: 'gold',
  approval2: 'success',
};

/**
 * Tab program of the Broadcast view (spec 2 sections 2-7): search, refresh, new program (role
 * "0"), and per program the steps its status allows the user's program role.
 */
export default function ProgramsTab() {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  // Spec 2 section 6: the program role is kept locally at sign-in; the server checks it again.
  const role = normalizeProgramRole(localStorage.getItem(PROGRAM_ROLE_KEY));
  const list = usePagedList('programs', (start, size, name) =>
    call(programs.listPrograms, { start, size, name }),
  );
  const [editing, setEditing] = useState<Program | null>();
  const [reason, setReason] = useState<{ kind: ReasonAction; program: Program }>();
  const [progress, setProgress] = useState<Program>();
  const [previewing, setPreviewing] = useState<Program>();
  const [publishing, setPublishing] = useState<Program>();
  const [tasksOf, setTasksOf] = useState<{ program: Program; taskId?: number }>();
  const { message } = App.useApp();

  const download = async (row: Program) => {
    try {
      const { url } = (await call(programs.exportZip, { programId: row.programId })).dataObject;
      // Same origin: the session cookie goes along; the server names the file.
      const link = document.createElement('a');
      link.href = url;
      link.download = '';
      link.click();
    } catch (error) {
      alreadyReported(error);
    }
  };

  const publish = async (selection: device.PanelSelection) => {
    if (!publishing) return false;
    try {
      const reply = await call(
        programs.publishProgram,
        { programId: publishing.programId, ...selectionParams(selection) },
        { json: true },
      );
      void message.success(reply.hhtMsg || t('common.done'), NOTICE_SECONDS);
      setTasksOf({ program: publishing, taskId: reply.dataObject.taskId });
      return true;
    } catch (error) {
      alreadyReported(error);
      return false;
    }
  };

  const columns: TableColumnsType<Program> = [
    { title: t('programs.name'), dataIndex: 'name', ellipsis: true },
    {
      title: t('programs.status'),
      dataIndex: 'status',
      render: (_, row) => (
        <Tag color={STATUS_COLORS[row.status]} data-testid="program-status">
          {t(`programs.statuses.${row.status}`)}
        </Tag>
      ),
    },
    { title: t('programs.playTime'), dataIndex: 'playTime', width: 110 },
    {
      title: t('programs.items'),
      key: 'items',
      render: (_, row) => row.items.map((item) => t(`programs.types.${item.type}`)).join(' · '),
    },
    {
      title: t('programs.lastStep'),
      key: 'lastStep',
      ellipsis: true,
      render: (_, row) =>
        row.lastStep && (
          <Typography.Text type={row.lastStep.status === 0 ? 'danger' : undefined}>
            {t(`programs.steps.roles.${row.lastStep.role}`)}: {row.lastStep.reason}
          </Typography.Text>
        ),
    },
    { title: t('programs.creator'), dataIndex: 'creatorName', width: 110 },
    {
      title: t('programs.creationDate'),
      dataIndex: 'creationDate',
      width: 170,
      render: (_, row) => formatDateTime(row.creationDate),
    },
    operationsColumn<Program>(t('lists.operations'), (row) => {
      const can = allowedActions(role, row.status);
      return (
        <>
          {can.edit && (
            <RowAction
              label={t('programs.actions.edit')}
              testId="program-edit"
              onClick={() => setEditing(row)}
            />
          )}
          {can.submit && (
            <RowAction
              label={t('programs.actions.submit')}
              testId="program-submit"
              onClick={() => setReason({ kind: 'submit', program: row })}
            />
          )}
          {can.pass && (
            <RowAction
              label={t('programs.actions.pass')}
              testId="program-pass"
              onClick={() => setReason({ kind: 'pass', program: row })}
            />
          )}
          {can.refuse && (
            <RowAction
              label={t('programs.actions.refuse')}
              testId="program-refuse"
              danger
              onClick={() => setReason({ kind: 'refuse', program: row })}
            />
          )}
          <RowAction
            label={t('programs.actions.progress')}
            testId="program-progress"
            onClick={() => setProgress(row)}
          />
          <RowAction
            label={t('programs.actions.preview')}
            testId="program-preview-open"
            onClick={() => setPreviewing(row)}
          />
          {can.publish && (
            <RowAction
              label={t('programs.actions.publish')}
              testId="program-publish"
              onClick={() => setPublishing(row)}
            />
          )}
          {row.status === 'approval2' && (
            <RowAction
              label={t('programs.zip.download')}
              testId="program-export"
              onClick={() => void download(row)}
            />
          )}
          <RowAction
            label={t('programs.actions.tasks')}
            testId="program-tasks"
            onClick={() => setTasksOf({ program: row })}
          />
          {can.remove && (
            <RowAction
              label={t('programs.actions.delete')}
              testId="program-delete"
              danger
              onClick={() =>
                confirm(
                  t('programs.deleteConfirm', { name: row.name }),
                  () => call(programs.deleteProgram, { programId: row.programId }),
                  list.reload,
                )
              }
            />
          )}
        </>
      );
    }),
  ];

  return (
    <div data-testid="programs-page">
      <ListToolbar
        searchPlaceholder={t('programs.searchName')}
        onSearch={list.search}
        onRefresh={list.refresh}
        extra={
          role === '0' && (
            <>
              <Button icon={<PlusOutlined />} data-testid="program-add" onClick={() => setEditing(null)}>
                {t('programs.add')}
              </Button>
              <ZipImportButton onImported={list.reload} />
            </>
          )
        }
      />
      <PagedTable<Program> rowKey="programId" columns={columns} list={list} />
      <ProgramEditorModal program={editing} onClose={() => setEditing(undefined)} onSaved={list.reload} />
      <ReasonModal action={reason} onClose={() => setReason(undefined)} onSaved={list.reload} />
      <ApprovalStepsModal program={progress} onClose={() => setProgress(undefined)} />
      <PreviewModal program={previewing} onClose={() => setPreviewing(undefined)} />
      <TerminalListModal
        open={publishing !== undefined}
        title={publishing ? t('programs.publish.title', { name: publishing.name }) : ''}
        unavailable={(device) => (device.state !== 1 ? t('lists.disabled') : undefined)}
        onSend={publish}
        onClose={() => setPublishing(undefined)}
        noDeviceKey="program.chooseDevice"
      />
      <PublishTasksModal
        program={tasksOf?.program}
        taskId={tasksOf?.taskId}
        onClose={() => setTasksOf(undefined)}
      />
    </div>
  );
}
