import { useState, type ReactNode } from 'react';
import { Button, Input, Space } from 'antd';
import { PlusOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';

interface FilterToolbarProps {
  /** The filter fields; the caller keeps their values and clears them in onRefresh. */
  children: ReactNode;
  onSearch(): void;
  onRefresh(): void;
  onAdd?: () => void;
  extra?: ReactNode;
}

/** Filter fields, search, refresh (clears the filters) and an optional add button above a list. */
export function FilterToolbar({ children, onSearch, onRefresh, onAdd, extra }: FilterToolbarProps) {
  const { t } = useTranslation();
  return (
    <Space wrap style={{ marginBottom: 16 }}>
      {children}
      <Button type="primary" icon={<SearchOutlined />} onClick={onSearch} data-testid="list-search-button">
        {t('lists.search')}
      </Button>
      <Button icon={<ReloadOutlined />} data-testid="list-refresh" onClick={onRefresh}>
        {t('lists.refresh')}
      </Button>
      {onAdd && (
        <Button icon={<PlusOutlined />} onClick={onAdd} data-testid="list-add">
          {t('lists.add')}
        </Button>
      )}
      {extra}
    </Space>
  );
}

interface SearchTextProps {
  placeholder: string;
  value: string;
  onChange(text: string): void;
  onSearch(): void;
}

/** The text box of a list search (Enter searches). */
export function SearchText({ placeholder, value, onChange, onSearch }: SearchTextProps) {
  return (
    <Input
      data-testid="list-search"
      allowClear
      placeholder={placeholder}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onPressEnter={onSearch}
      style={{ width: 220 }}
    />
  );
}

/** A day filter as list calls take it: yyyy-MM-dd and the console's offset from UTC on that day. */
export const dayFilter = (day: Dayjs | null | undefined): { createDate?: string; utcOffset?: number } =>
  day ? { createDate: day.format('YYYY-MM-DD'), utcOffset: day.startOf('day').utcOffset() } : {};

interface ListToolbarProps {
  searchPlaceholder: string;
  onSearch(text: string): void;
  onRefresh(): void;
  onAdd?: () => void;
  extra?: ReactNode;
}

/** The toolbar of a list searched by one text. */
export function ListToolbar({ searchPlaceholder, onSearch, onRefresh, onAdd, extra }: ListToolbarProps) {
  const [text, setText] = useState('');
  return (
    <FilterToolbar
      onSearch={() => onSearch(text)}
      onRefresh={() => {
        setText('');
        onRefresh();
      }}
      onAdd={onAdd}
      extra={extra}
    >
      <SearchText
        placeholder={searchPlaceholder}
        value={text}
        onChange={setText}
        onSearch={() => onSearch(text)}
      />
    </FilterToolbar>
  );
}
