import { useState, type ReactNode } from 'react';
import { Button, Input, Space } from 'antd';
import { PlusOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

interface ListToolbarProps {
  searchPlaceholder: string;
  onSearch(text: string): void;
  onRefresh(): void;
  onAdd?: () => void;
  extra?: ReactNode;
}

/** Search box, search, refresh (clears the search) and an optional add button above a list. */
export function ListToolbar({ searchPlaceholder, onSearch, onRefresh, onAdd, extra }: ListToolbarProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  return (
    <Space wrap style={{ marginBottom: 16 }}>
      <Input
        data-testid="list-search"
        allowClear
        placeholder={searchPlaceholder}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onPressEnter={() => onSearch(text)}
        style={{ width: 220 }}
      />
      <Button type="primary" icon={<SearchOutlined />} onClick={() => onSearch(text)} data-testid="list-search-button">
        {t('lists.search')}
      </Button>
      <Button
        icon={<ReloadOutlined />}
        data-testid="list-refresh"
        onClick={() => {
          setText('');
          onRefresh();
        }}
      >
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
