import { useState, type RefObject } from 'react';
import { Select } from 'antd';
import { device } from '@panelfleet/contract';
import { schemaRule } from '../../../forms/schemaRule';

interface LabelInputProps {
  value?: string[];
  onChange?: (names: string[]) => void;
  /** Names of the company's labels, offered while typing. */
  known: string[];
  /** Text typed but not confirmed yet (spec 2 section 5: it counts and is appended). */
  pending: RefObject<string>;
  placeholder?: string;
  testId: string;
}

/** Label names: pick existing labels or type new ones (a dash, the separator, confirms a name too). */
export function LabelInput({ value, onChange, known, pending, placeholder, testId }: LabelInputProps) {
  const [text, setText] = useState('');
  const typed = (next: string) => {
    setText(next);
    pending.current = next;
  };
  return (
    <Select
      mode="tags"
      data-testid={testId}
      value={value}
      placeholder={placeholder}
      searchValue={text}
      onSearch={typed}
      tokenSeparators={[device.TAG_SEPARATOR]}
      onChange={(names: string[]) => {
        typed('');
        onChange?.([...new Set(names.map((n) => n.trim()).filter(Boolean))]);
      }}
      options={known.map((name) => ({ value: name, label: name }))}
      style={{ width: '100%' }}
    />
  );
}

/** The chosen names with the unconfirmed one appended. */
export function withPending(names: string[] | undefined, pending: string): string[] {
  return [...new Set([...(names ?? []), pending.trim()].filter(Boolean))];
}

/** The contract's rule for a device's labels (at least one, at most 20, each a valid label name). */
export function labelsRule(translate: (key: string) => string, pending: RefObject<string>) {
  return schemaRule(device.tagNames, translate, (value) =>
    withPending(value as string[] | undefined, pending.current).join(device.TAG_SEPARATOR),
  );
}
