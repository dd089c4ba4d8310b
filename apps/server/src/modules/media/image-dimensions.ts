/** What a PNG or JPEG header says about the image. */
export interface ImageHeader {
  format: 'png' | 'jpeg';
  width: number;
  height: number;
}

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** JPEG start-of-frame markers (baseline, progressive, lossless, arithmetic); C4, C8 and CC are not frames. */
const startOfFrame = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function pngHeader(bytes: Buffer): ImageHeader | null {
  // The first chunk must be IHDR: length 13, type, then width and height as 32-bit big-endian.
  if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { format: 'png', width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function jpegHeader(bytes: Buffer): ImageHeader | null {
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1];
    // Fill bytes: a marker may be preceded by any number of 0xFF.
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    // Markers without a length: restart markers, TEM, and a stray start-of-image.
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01 || marker === 0xd8) {
      offset += 2;
      continue;
    }
    // Start of scan or end of image before any frame: no size to read.
    if (marker === 0xda || marker === 0xd9) return null;
    const length = bytes.readUInt16BE(offset + 2);
    if (length < 2) return null;
    if (startOfFrame.has(marker)) {
      if (offset + 9 > bytes.length) return null;
      return {
        format: 'jpeg',
        height: bytes.readUInt16BE(offset + 5),
        width: bytes.readUInt16BE(offset + 7),
      };
    }
    offset += 2 + length;
  }
  return null;
}

/**
 * Reads an image's format and pixel size from its first bytes (PNG IHDR, JPEG SOF), so a
 * logo's limits are checked on what the file is, not on what its name or type claim.
 * Null when the bytes are neither a PNG nor a JPEG with a readable size.
 */
export function readImageHeader(bytes: Buffer): ImageHeader | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(pngSignature)) return pngHeader(bytes);
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpegHeader(bytes);
  return null;
}
