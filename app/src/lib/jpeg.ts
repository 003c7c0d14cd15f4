//! Reading and trimming JPEG segments without decoding: the frame size, and the file
//! without its metadata. Pure functions, shared by the photo worker and the app.

/** The size in the SOF header of a JPEG, or undefined when `bytes` is not a readable JPEG. */
export function jpegSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined
  let at = 2
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined
    const marker = bytes[at + 1]
    if (marker === 0xff) {
      at++ // fill byte
      continue
    }
    const length = (bytes[at + 2] << 8) | bytes[at + 3]
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: (bytes[at + 5] << 8) | bytes[at + 6], width: (bytes[at + 7] << 8) | bytes[at + 8] }
    }
    at += 2 + length
  }
  return undefined
}

/**
 * `jpeg` without its metadata segments (APP1-APP15: EXIF, XMP, ICC profiles, ...; and
 * comments), keeping APP0 (JFIF) and everything the image needs.
 */
export function stripMetadata(jpeg: Uint8Array): Uint8Array {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return jpeg
  const kept: Uint8Array[] = [jpeg.subarray(0, 2)]
  let removed = false
  let at = 2
  while (at + 4 <= jpeg.length && jpeg[at] === 0xff) {
    const marker = jpeg[at + 1]
    if (marker === 0xda) break // start of scan: the rest is image data
    const end = at + 2 + ((jpeg[at + 2] << 8) | jpeg[at + 3])
    const metadata = (marker >= 0xe1 && marker <= 0xef) || marker === 0xfe
    if (metadata) removed = true
    else kept.push(jpeg.subarray(at, end))
    at = end
  }
  if (!removed) return jpeg
  kept.push(jpeg.subarray(at))
  const out = new Uint8Array(kept.reduce((n, part) => n + part.length, 0))
  let offset = 0
  for (const part of kept) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

