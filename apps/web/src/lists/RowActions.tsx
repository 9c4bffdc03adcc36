import type { ReactNode } from 'react';
import {
  Button,
  Space,
  Table,
  Tooltip,
  type TableColumnType,
  type TableColumnsType,
  type TablePaginationConfig,
} from 'antd';

/**
 * The operations column every list ends with. Lists fit their card (fixed layout, no sideways
 * scroll), so the column takes the width its actions need; they wrap when the window is narrow.
 */
export function operationsColumn<Row>(
  title: string,
  actions: (row: Row) => ReactNode,
  width?: number,
): TableColumnType<Row> {
  return {
    title,
    key: 'operations',
    ...(width ? { width } : {}),
    render: (_, row) => (
      <Space size={0} wrap>
        {actions(row)}
      </Space>
    ),
  };
}

/**
 * A text column that keeps to one line: a value longer than the column ends in "…" and shows
 * whole in a tooltip, so a long remark or address never widens the table past its card.
 */
export function textColumn<Row>(
  title: string,
  dataIndex: keyof Row & string,
  width?: number,
): TableColumnType<Row> {
  return {
    title,
    dataIndex,
    ...(width ? { width } : {}),
    ellipsis: { showTitle: false },
    render: (value: unknown) =>
      value === '' || value === null || value === undefined ? (
        ''
      ) : (
        <Tooltip title={String(value)} placement="topLeft">
          <span data-cell={dataIndex}>{String(value)}</span>
        </Tooltip>
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

/**
 * A table fed by usePagedList: server-side pages. It fits its card at any window width the
 * console supports (fixed layout): every column stays in view, long text ends in "…" (textColumn)
 * and short values wrap, instead of the table growing sideways and hiding its last columns.
 */
export function PagedTable<Row extends object>({ rowKey, columns, list }: PagedTableProps<Row>) {
  return (
    <Table<Row>
      rowKey={rowKey}
      columns={columns}
      dataSource={list.rows}
      loading={list.loading}
      pagination={list.pagination}
      tableLayout="fixed"
      size="middle"
    />
  );
}
