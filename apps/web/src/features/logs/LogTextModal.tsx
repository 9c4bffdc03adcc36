import { useState } from 'react';
import { Alert, Button, Modal, Pagination, Space, Spin, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { logs } from '@panelfleet/contract';
import { call } from '../../api/client';
import { SESSION_QUERY_KEY } from '../../app/queryClient';

/**
 * The text of an abnormal log, one page (32,768 characters) at a time: a large log is never
 * loaded whole into the page; the whole text is a download.
 */
export function LogTextModal({ log, onClose }: { log: logs.AbnormalLogRecord | undefined; onClose(): void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const open = log !== undefined;
  const text = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'abnormalLogText', log?.id, page],
    queryFn: () => call(logs.viewErrorLog, { id: log!.id, page }),
    enabled: open,
    retry: false,
  });
  const close = () => {
    setPage(1);
    onClose();
  };
  const info = text.data?.dataObject;
  return (
    <Modal
      title={t('abnormalLog.viewTitle', { name: log?.fileName ?? '' })}
      open={open}
      onCancel={close}
      width={850}
      footer={
        <Space>
          {log && (
            <Button
              icon={<DownloadOutlined />}
              href={`${logs.downloadErrorLog.path}?id=${log.id}`}
              data-testid="abnormal-log-download"
            >
              {t('abnormalLog.download')}
            </Button>
          )}
          <Button type="primary" onClick={close} data-testid="abnormal-log-close">
            {t('common.ok')}
          </Button>
        </Space>
      }
      destroyOnHidden
    >
      <div data-testid="abnormal-log-text-dialog">
        {info && info.pages > 1 && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 12 }}
            title={t('abnormalLog.pagedNotice', { length: info.textLength, pages: info.pages })}
          />
        )}
        <Spin spinning={text.isFetching}>
          <Typography.Paragraph>
            <pre
              data-testid="abnormal-log-text"
              style={{
                maxHeight: 420,
                overflow: 'auto',
                whiteSpace: 'pre-wrap',
                wordBreak: 'break-all',
                margin: 0,
              }}
            >
              {text.data?.listObject ?? ''}
            </pre>
          </Typography.Paragraph>
        </Spin>
        {info && info.pages > 1 && (
          <Pagination
            data-testid="abnormal-log-pages"
            current={page}
            total={info.pages}
            pageSize={1}
            showSizeChanger={false}
            onChange={setPage}
            size="small"
          />
        )}
      </div>
    </Modal>
  );
}
