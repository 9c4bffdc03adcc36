import type { Area } from 'react-easy-crop';
import { AVATAR_SIZE } from './avatarFile';

/** Draws the chosen area of the image onto a 150x150 canvas on white (jpg has no transparency). */
export function cropToCanvas(image: HTMLImageElement, area: Area): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = AVATAR_SIZE;
  canvas.height = AVATAR_SIZE;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('canvas 2d context unavailable');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, AVATAR_SIZE, AVATAR_SIZE);
  context.drawImage(image, area.x, area.y, area.width, area.height, 0, 0, AVATAR_SIZE, AVATAR_SIZE);
  return canvas;
}

export const canvasToJpeg = (canvas: HTMLCanvasElement): Promise<Blob> =>
  new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('the crop could not be encoded as jpg'))),
      'image/jpeg',
      0.92,
    );
  });

export const loadImage = (src: string): Promise<HTMLImageElement> =>
  new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('the image could not be read'));
    image.src = src;
  });
