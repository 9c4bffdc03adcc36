import { Image } from 'antd';
import { DEFAULT_ICON } from './defaultIcon';

/** A card's icon; one that fails to load shows the default picture. */
export function ApkIcon({ src, size, title }: { src: string; size: number; title?: string }) {
  return (
    <Image
      src={src || DEFAULT_ICON}
      fallback={DEFAULT_ICON}
      width={size}
      height={size}
      preview={false}
      alt={title ?? ''}
      title={title}
      style={{ objectFit: 'contain', borderRadius: 8 }}
    />
  );
}
