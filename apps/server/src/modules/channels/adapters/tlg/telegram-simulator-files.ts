import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { readImageHeader } from '../../../media/image-dimensions';
import {
  badRequest,
  type TelegramDocument,
  type TelegramFile,
  type TelegramPhotoSize,
} from './telegram-simulator-types';

/** One file a bot can reach by its file_id, with the bytes that `/file/bot<token>/<path>` serves. */
export interface StoredTelegramFile {
  fileId: string;
  fileUniqueId: string;
  filePath: string;
  mimeType: string;
  bytes: Buffer;
  /** How a message shows the file when it is sent again by id: all sizes of its photo, or the document. */
  photo?: TelegramPhotoSize[];
  document?: TelegramDocument;
}

/** Telegram lets bots download files up to 20 MB through getFile. */
const downloadLimitBytes = 20 * 1024 * 1024;
/** The thumbnail sides Telegram makes below the full photo ('s', 'm', 'x'). */
const thumbnailSides = [90, 320, 800];

const randomId = (prefix: string, bytes: number) => prefix + randomBytes(bytes).toString('base64url');

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, checksum]);
}

/** A plain grey PNG of the given size: a thumbnail whose header tells its real dimensions. */
function greyPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale, deflate, no filter method, no interlace
  const row = Buffer.alloc(width + 1, 0xb0);
  row[0] = 0; // filter type "none" starts every scanline
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * The files one bot can see. Telegram's file ids are valid only for the bot that got them,
 * so each bot has its own store.
 */
export class TelegramFileStore {
  private readonly byId = new Map<string, StoredTelegramFile>();
  private readonly byPath = new Map<string, StoredTelegramFile>();
  private count = 0;

  /** Keeps bytes under a new file id, in Telegram's `photos/` or `documents/` folder. */
  add(
    folder: 'photos' | 'documents',
    bytes: Buffer,
    meta: { mimeType: string; extension: string },
  ): StoredTelegramFile {
    this.count += 1;
    const file: StoredTelegramFile = {
      // Real ids start with a type tag (AgAC photo, BQAC document); clients treat them as opaque.
      fileId: randomId(folder === 'photos' ? 'AgACAgUAAxkBAA' : 'BQACAgUAAxkBAA', 48),
      fileUniqueId: randomId(folder === 'photos' ? 'AQAD' : 'AgAD', 9),
      filePath: `${folder}/file_${this.count}${meta.extension}`,
      mimeType: meta.mimeType,
      bytes,
    };
    this.byId.set(file.fileId, file);
    this.byPath.set(file.filePath, file);
    return file;
  }

  get(fileId: string): StoredTelegramFile | undefined {
    return this.byId.get(fileId);
  }

  atPath(filePath: string): StoredTelegramFile | undefined {
    return this.byPath.get(filePath);
  }

  /** getFile's answer; refuses unknown ids and files over the 20 MB download limit as Telegram does. */
  describe(fileId: string): TelegramFile {
    const file = this.byId.get(fileId);
    if (!file) throw badRequest('invalid file_id');
    if (file.bytes.length > downloadLimitBytes) throw badRequest('file is too big');
    return {
      file_id: file.fileId,
      file_unique_id: file.fileUniqueId,
      file_size: file.bytes.length,
      file_path: file.filePath,
    };
  }

  /**
   * Stores a photo as Telegram presents it: thumbnails for each standard side smaller than the
   * photo, then the photo itself last with the original bytes. Thumbnails are grey PNGs of
   * their stated size, so code that wrongly takes `photo[0]` gets visibly different bytes.
   */
  photo(bytes: Buffer): TelegramPhotoSize[] {
    const header = readImageHeader(bytes);
    if (!header || header.width === 0 || header.height === 0) throw badRequest('IMAGE_PROCESS_FAILED');
    const { width, height } = header;
    if (width + height > 10_000 || Math.max(width, height) / Math.min(width, height) > 20)
      throw badRequest('PHOTO_INVALID_DIMENSIONS');
    const longest = Math.max(width, height);
    const sizes: TelegramPhotoSize[] = [];
    for (const side of thumbnailSides.filter((candidate) => candidate < longest)) {
      const scaled = {
        width: Math.max(1, Math.round((width * side) / longest)),
        height: Math.max(1, Math.round((height * side) / longest)),
      };
      const thumbnail = this.add('photos', greyPng(scaled.width, scaled.height), {
        mimeType: 'image/png',
        extension: '.png',
      });
      sizes.push(photoSize(thumbnail, scaled));
    }
    const full = this.add('photos', bytes, {
      mimeType: `image/${header.format}`,
      extension: header.format === 'png' ? '.png' : '.jpg',
    });
    sizes.push(photoSize(full, header));
    for (const size of sizes) this.byId.get(size.file_id)!.photo = sizes;
    return sizes;
  }

  /** Stores a document under its own name and type. */
  document(bytes: Buffer, fileName: string, mimeType: string): TelegramDocument {
    const file = this.add('documents', bytes, { mimeType, extension: path.extname(fileName) });
    file.document = {
      file_id: file.fileId,
      file_unique_id: file.fileUniqueId,
      file_name: fileName,
      mime_type: mimeType,
      file_size: bytes.length,
    };
    return file.document;
  }
}

function photoSize(file: StoredTelegramFile, size: { width: number; height: number }): TelegramPhotoSize {
  return {
    file_id: file.fileId,
    file_unique_id: file.fileUniqueId,
    width: size.width,
    height: size.height,
    file_size: file.bytes.length,
  };
}
