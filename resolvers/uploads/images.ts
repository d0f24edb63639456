// Images among uploads, avatars, organization icons and logos (Zulip's zerver/lib/thumbnail.py):
// dimensions read when uploaded, thumbnails made in the background, avatars and logos resized. libvips through sharp.
import sharp, { type Metadata, type Sharp } from 'sharp';
import { BadImageError } from '../errors.ts';

/** Zulip's THUMBNAIL_ACCEPT_IMAGE_TYPES, less HEIC (not in sharp's prebuilt libvips). */
const THUMBNAILED_FORMATS = new Set(['avif', 'gif', 'jpeg', 'png', 'tiff', 'webp']);

/** Zulip's IMAGE_BOMB_TOTAL_PIXELS: images larger than this are not decoded at all. */
export const IMAGE_BOMB_TOTAL_PIXELS = 90_000_000;

export interface ImageFacts {
  width: number;
  height: number;
  frames: number;
  /** sharp's name of the format: png, jpeg, gif, webp, ... */
  format: string;
}

/** Dimensions and frame count of an image the thumbnailer can read, from its header; else null. */
export async function imageMetadata(bytes: Buffer): Promise<ImageFacts | null> {
  try {
    const meta = await sharp(bytes, { limitInputPixels: IMAGE_BOMB_TOTAL_PIXELS, pages: -1 }).metadata();
    if (!meta.format || !THUMBNAILED_FORMATS.has(meta.format)) return null;
    const frames = meta.pages ?? 1;
    const width = meta.width;
    // With all pages loaded, sharp reports the height of the whole strip of frames.
    const height = meta.pageHeight ?? (meta.height && frames > 1 ? meta.height / frames : meta.height);
    if (!width || !height) return null;
    if (width * height > IMAGE_BOMB_TOTAL_PIXELS) return null;
    // EXIF orientations 5-8 turn the image a quarter: its displayed dimensions swap.
    const turned = meta.orientation != null && meta.orientation >= 5;
    return { width: turned ? height : width, height: turned ? width : height, frames, format: meta.format };
  } catch {
    return null;
  }
}

/** Where a thumbnail of an upload is kept. */
export function thumbnailKey(pathId: string, format: string): string {
  return `thumbnail/${pathId}/${format}`;
}

/** A thumbnail format (Zulip's ThumbnailFormat): named `{width}x{height}[-anim].{format}`. */
export interface ThumbnailFormat {
  name: string;
  maxWidth: number;
  maxHeight: number;
  format: 'webp';
  animated: boolean;
}

/**
 * Zulip's THUMBNAIL_OUTPUT_FORMATS: large enough that clients which know nothing of thumbnails (the
 * mobile apps show `src`) get something that does not look pixelated. The animated one is made for
 * animated images only.
 */
export const THUMBNAIL_FORMATS: ThumbnailFormat[] = [
  { name: '840x560-anim.webp', maxWidth: 840, maxHeight: 560, format: 'webp', animated: true },
  { name: '840x560.webp', maxWidth: 840, maxHeight: 560, format: 'webp', animated: false },
];

/** The still thumbnail messages show (animated images animate on the client's request). */
export const DEFAULT_THUMBNAIL = '840x560.webp';

export function thumbnailFormatsFor(frames: number): ThumbnailFormat[] {
  return THUMBNAIL_FORMATS.filter((f) => !f.animated || frames > 1);
}

/** A thumbnail: the image shrunk (never enlarged) to fit the format, turned upright, as WebP. */
export async function makeThumbnail(bytes: Buffer, format: ThumbnailFormat): Promise<Buffer> {
  return sharp(bytes, { limitInputPixels: IMAGE_BOMB_TOTAL_PIXELS, animated: format.animated })
    .rotate()
    .resize({ width: format.maxWidth, height: format.maxHeight, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 80 })
    .toBuffer();
}

/** Zulip's DEFAULT_AVATAR_SIZE and MEDIUM_AVATAR_SIZE: avatars and organization icons are squares this wide. */
export const DEFAULT_AVATAR_SIZE = 100;
export const MEDIUM_AVATAR_SIZE = 500;

const NOT_AN_IMAGE = 'Could not decode image; did you upload an image file?';

/** Reads an image that must be one (avatars, icons, logos), refusing what cannot be decoded or is too large. */
async function decodable(bytes: Buffer): Promise<void> {
  let meta: Metadata | null;
  try {
    // sharp refuses some inputs (an empty file) as it is constructed, before any promise.
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    meta = null;
  }
  if (!meta?.width || !meta.height) throw new BadImageError(NOT_AN_IMAGE);
  if (meta.width * meta.height > IMAGE_BOMB_TOTAL_PIXELS) throw new BadImageError('Image size exceeds limit.');
}

async function render(image: Sharp): Promise<Buffer> {
  try {
    return await image.png().toBuffer();
  } catch {
    throw new BadImageError(NOT_AN_IMAGE);
  }
}

/** Zulip's resize_avatar: the centre of the image, upright, as a `size`-pixel PNG square. */
export async function resizeAvatar(bytes: Buffer, size: number): Promise<Buffer> {
  await decodable(bytes);
  return render(sharp(bytes, { limitInputPixels: IMAGE_BOMB_TOTAL_PIXELS }).rotate().resize(size, size, { fit: 'cover', position: 'centre' }));
}

/** Zulip's resize_logo: upright, shrunk (never enlarged) to fit 800×100, as PNG. */
export async function resizeLogo(bytes: Buffer): Promise<Buffer> {
  await decodable(bytes);
  return render(sharp(bytes, { limitInputPixels: IMAGE_BOMB_TOTAL_PIXELS }).rotate()
    .resize({ width: 8 * DEFAULT_AVATAR_SIZE, height: DEFAULT_AVATAR_SIZE, fit: 'inside', withoutEnlargement: true }));
}
