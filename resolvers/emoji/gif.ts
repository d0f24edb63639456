// Just enough GIF parsing for custom emoji: whether an image is animated, and its first frame as a
// GIF of its own (Zulip's `still_url`). A still is the file cut after its first image and closed with
// the trailer, which every decoder reads as a one-frame GIF.

interface GifLayout {
  frames: number;
  /** Offset just past the first image's data. */
  firstFrameEnd: number;
}

function skipSubBlocks(bytes: Buffer, offset: number): number {
  while (offset < bytes.length) {
    const size = bytes[offset]!;
    offset += 1 + size;
    if (size === 0) return offset;
  }
  return -1;
}

export function gifLayout(bytes: Buffer): GifLayout | null {
  if (bytes.length < 13 || !/^GIF8[79]a$/.test(bytes.subarray(0, 6).toString('latin1'))) return null;
  const packed = bytes[10]!;
  let offset = 13 + (packed & 0x80 ? 3 * 2 ** ((packed & 7) + 1) : 0);
  let frames = 0;
  let firstFrameEnd = -1;
  while (offset < bytes.length) {
    const introducer = bytes[offset]!;
    if (introducer === 0x3b) break;
    if (introducer === 0x21) {
      offset = skipSubBlocks(bytes, offset + 2);
    } else if (introducer === 0x2c) {
      if (offset + 10 > bytes.length) return null;
      const local = bytes[offset + 9]!;
      offset += 10 + (local & 0x80 ? 3 * 2 ** ((local & 7) + 1) : 0);
      offset = skipSubBlocks(bytes, offset + 1); // after the LZW minimum code size
      if (offset < 0) return null;
      frames += 1;
      if (frames === 1) firstFrameEnd = offset;
    } else {
      return null;
    }
    if (offset < 0) return null;
  }
  return frames ? { frames, firstFrameEnd } : null;
}

export function isAnimatedGif(bytes: Buffer): boolean {
  return (gifLayout(bytes)?.frames ?? 0) > 1;
}

/** The first frame of a GIF, or the bytes unchanged when they are not a GIF this can read. */
export function gifStill(bytes: Buffer): Buffer {
  const layout = gifLayout(bytes);
  if (!layout) return bytes;
  return Buffer.concat([bytes.subarray(0, layout.firstFrameEnd), Buffer.from([0x3b])]);
}
