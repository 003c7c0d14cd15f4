import { describe, expect, it } from 'vitest'

import { jpegSize, stripMetadata } from './jpeg'

/** A marker segment: FF, marker, 2-byte length (which counts itself), payload. */
function segment(marker: number, payload: number[]): number[] {
  const length = payload.length + 2
  return [0xff, marker, length >> 8, length & 0xff, ...payload]
}

const ascii = (text: string) => Array.from(text, (c) => c.charCodeAt(0))
const app0 = segment(0xe0, [...ascii('JFIF'), 0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
const exif = segment(0xe1, [...ascii('Exif'), 0, 0, ...ascii('II*'), 0, 8, 0, 0, 0])
const icc = segment(0xe2, [...ascii('ICC_PROFILE'), 0, 1, 1])
const comment = segment(0xfe, ascii('made by a phone'))
// SOF0: precision 8, height 1200, width 1600, 3 components.
const sof = segment(0xc0, [8, 0x04, 0xb0, 0x06, 0x40, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])
const scan = [...segment(0xda, [3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3f, 0]), 0x12, 0x34, 0xff, 0x00, 0xff, 0xd9]

const jpeg = (...parts: number[][]) => new Uint8Array([0xff, 0xd8, ...parts.flat()])

describe('jpegSize', () => {
  it('reads the frame size past metadata segments', () => {
    expect(jpegSize(jpeg(app0, exif, sof, scan))).toEqual({ width: 1600, height: 1200 })
  })

  it('gives undefined for bytes that are not a JPEG or end early', () => {
    expect(jpegSize(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBeUndefined()
    expect(jpegSize(jpeg(app0).subarray(0, 10))).toBeUndefined()
  })
})

describe('stripMetadata', () => {
  it('drops EXIF, ICC and comments, keeps JFIF, the frame and the scan byte for byte', () => {
    const stripped = stripMetadata(jpeg(app0, exif, icc, comment, sof, scan))
    expect(Array.from(stripped)).toEqual(Array.from(jpeg(app0, sof, scan)))
  })

  it('returns a clean JPEG unchanged, and leaves non-JPEG bytes alone', () => {
    const clean = jpeg(app0, sof, scan)
    expect(stripMetadata(clean)).toBe(clean)
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47])
    expect(stripMetadata(png)).toBe(png)
  })
})
