import { describe, expect, it } from 'vitest';
import { readImageHeader } from './image-dimensions';
import { jpegOf, pngOf } from './media.test-support';

describe('readImageHeader', () => {
  it('reads the size of a PNG from its IHDR chunk', () => {
    expect(readImageHeader(pngOf(320, 200))).toEqual({ format: 'png', width: 320, height: 200 });
  });

  it('reads the size of a JPEG from its frame header, past the segments before it', () => {
    expect(readImageHeader(jpegOf(640, 480))).toEqual({ format: 'jpeg', width: 640, height: 480 });
  });

  it('answers null for bytes that are no PNG or JPEG, or are cut short', () => {
    expect(readImageHeader(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(readImageHeader(pngOf(10, 10).subarray(0, 20))).toBeNull();
    expect(readImageHeader(jpegOf(10, 10).subarray(0, 24))).toBeNull();
    expect(readImageHeader(Buffer.alloc(0))).toBeNull();
  });
});
