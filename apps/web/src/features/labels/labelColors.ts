/** Ant Design preset colours, one per label, stable for a name wherever the label is shown. */
const PALETTE = [
  'blue',
  'green',
  'orange',
  'purple',
  'cyan',
  'magenta',
  'gold',
  'geekblue',
  'volcano',
  'lime',
  'red',
] as const;

export function labelColor(name: string): (typeof PALETTE)[number] {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.codePointAt(0)!) >>> 0;
  return PALETTE[hash % PALETTE.length]!;
}
