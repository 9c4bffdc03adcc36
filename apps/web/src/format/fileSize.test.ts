import { describe, expect, it } from 'vitest';
import { formatFileSize, megabytes } from './fileSize';

describe('OTA file sizes', () => {
  it('shows M above 1 MB, KB above 1 KB, B otherwise', () => {
    expect(formatFileSize(5 * 1024 * 1024 + 200 * 1024)).toBe('5.2 M');
    expect(formatFileSize(1024 * 1024)).toBe('1024.0 KB');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(1024)).toBe('1024 B');
    expect(formatFileSize(0)).toBe('0 B');
  });
  it('gives progress in MB with one decimal', () => {
    expect(megabytes(3 * 1024 * 1024 + 512 * 1024)).toBe('3.5');
    expect(megabytes(0)).toBe('0.0');
  });
});
