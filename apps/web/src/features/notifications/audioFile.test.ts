import { describe, expect, it } from 'vitest';
import { audioFileProblem, formatFileSize } from './audioFile';

describe('audio file checks before upload', () => {
  it('accepts the spec’s formats up to 20 MB', () => {
    for (const name of ['a.mp3', 'b.WMA', 'c.wav', 'd.amr', 'e.aac', 'f.ogg', 'g.mp4', 'h.flac', 'i.ape'])
      expect(audioFileProblem({ name, size: 1000 })).toBeUndefined();
    expect(audioFileProblem({ name: 'big.mp3', size: 20 * 1024 * 1024 })).toBeUndefined();
  });

  it('refuses other names and larger files', () => {
    expect(audioFileProblem({ name: 'notes.txt', size: 10 })).toBe('deviceManage.FileFormat');
    expect(audioFileProblem({ name: 'mp3', size: 10 })).toBe('deviceManage.FileFormat');
    expect(audioFileProblem({ name: 'big.mp3', size: 20 * 1024 * 1024 + 1 })).toBe('deviceManage.FileSize');
  });

  it('shows sizes in KB or MB', () => {
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(3 * 1024 * 1024)).toBe('3.0 MB');
  });
});
