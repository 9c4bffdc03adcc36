import type { ReactNode } from 'react';
import {
  Button,
  Space,
  Table,
  type TableColumnType,
  type TableColumnsType,
  type TablePaginationConfig,
} from 'antd';

/** The operations column every list ends with: pinned right so it stays visible at 1200 px. */
export function operationsColumn<Row>(title: string, actions: (row: Row) => ReactNode): TableColumnType<Row> {
  return {
    title,
    key: 'operations',
    fixed: 'right',
    render: (_, row) => (
      <Space size={0} wrap>
        {actions(row)}
      </Space>
    ),
  };
}

interface RowActionProps {
  label: string;
  testId: string;
  onClick: () => void;
  danger?: boolean;
  disabled?: boolean;
  title?: string;
}

/** One link-style action in a row (edit, delete, reset password, ...). */
export function RowAction({ label, testId, onClick, danger, disabled, title }: RowActionProps) {
  return (
    <Button
      type="link"
      size="small"
      danger={danger}
      disabled={disabled}
      title={title}
      data-testid={testId}
      onClick={onClick}
    >
      {label}
    </Button>
  );
}

interface PagedTableProps<Row> {
  rowKey: keyof Row & string;
  columns: TableColumnsType<Row>;
  list: { rows: Row[]; loading: boolean; pagination: TablePaginationConfig };
}

/** A table fed by usePagedList: server-side pages, horizontal scroll instead of squeezed columns. */
export function PagedTable<Row extends object>({ rowKey, columns, list }: PagedTableProps<Row>) {
  return (
    <Table<Row>
      rowKey={rowKey}
      columns={columns}
      dataSource={list.rows}
      loading={list.loading}
      pagination={list.pagination}
      scroll={{ x: 'max-content' }}
    />
  );
}
