import type { TestServer } from '../../test/test-server';

/** A PNG with just enough bytes for its header: signature, IHDR of the given size, IEND. */
export function pngOf(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr.set([8, 2, 0, 0, 0], 16);
  const iend = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr, iend]);
}

/** A JPEG header with an APP0 segment before the frame, as cameras and editors write it. */
export function jpegOf(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const sof = Buffer.alloc(19);
  sof.set([0xff, 0xc0, 0x00, 0x11, 8], 0);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  sof.set([3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1], 9);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

/** Uploads through the real flow (getLink, then PUT); answers the file id and its read link. */
export async function uploadThroughLink(
  server: TestServer,
  token: string,
  file: { filename: string; contentType: string; bytes: Buffer },
): Promise<{ fileId: string; url: string }> {
  const query = new URLSearchParams({ filename: file.filename, contentType: file.contentType });
  const link = await server.request<{ fileId: string; uploadUrl: string; url: string }>(
    'GET',
    `/api/csp/upload/getLink?${query}`,
    { token },
  );
  if (link.status !== 200) throw new Error(`getLink failed: ${JSON.stringify(link.body)}`);
  const put = await fetch(`${server.url}${link.body.uploadUrl}`, {
    method: 'PUT',
    headers: { 'content-type': file.contentType },
    body: new Uint8Array(file.bytes),
  });
  if (put.status !== 200) throw new Error(`upload failed: ${put.status} ${await put.text()}`);
  return { fileId: link.body.fileId, url: link.body.url };
}
