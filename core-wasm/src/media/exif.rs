//! Reads a photo's size and EXIF orientation straight from its header bytes, without
//! decoding pixels and without copying the file: JPEG segments up to the first scan, PNG
//! chunks up to the first image data.
//!
//! Every read is bounds-checked; a file that ends inside its header is "incomplete", one
//! whose structure makes no sense is "damaged".

use super::{MediaError, PhotoFormat};

/// What the header says about a photo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub format: PhotoFormat,
    /// Size as stored, before the orientation is applied.
    pub width: u32,
    pub height: u32,
    /// EXIF orientation, 1 (upright) to 8; 1 when absent or invalid.
    pub orientation: u8,
    /// Offset of the first JPEG scan (0 for PNG): the image data starts there.
    pub scan_offset: usize,
}

const PNG_SIGNATURE: &[u8; 8] = b"\x89PNG\r\n\x1a\n";
const EXIF_PREFIX: &[u8; 6] = b"Exif\0\0";
const ORIENTATION_TAG: u16 = 0x0112;

/// Recognises JPEG and PNG by their first bytes (the file name and MIME type are not
/// trusted).
pub fn sniff(bytes: &[u8]) -> Result<PhotoFormat, MediaError> {
    if bytes.is_empty() {
        Err(MediaError::Empty)
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Ok(PhotoFormat::Jpeg)
    } else if bytes.starts_with(PNG_SIGNATURE) {
        Ok(PhotoFormat::Png)
    } else if bytes.len() < 8 && (PNG_SIGNATURE.starts_with(bytes) || bytes == [0xFF, 0xD8]) {
        Err(MediaError::Incomplete)
    } else {
        Err(MediaError::NotAPhoto)
    }
}

/// Reads the header of a JPEG or PNG.
pub fn read_header(bytes: &[u8]) -> Result<Header, MediaError> {
    let header = match sniff(bytes)? {
        PhotoFormat::Jpeg => read_jpeg(bytes)?,
        PhotoFormat::Png => read_png(bytes)?,
    };
    if header.width == 0 || header.height == 0 {
        return Err(MediaError::Damaged);
    }
    Ok(header)
}

/// Whether a JPEG's image data reaches its end marker. Decoders tolerate a missing end and
/// paint the rest grey, which would silently send half a photo, so a file without one is
/// treated as incomplete. After the first scan, 0xFF 0xD9 can only be the end marker
/// (entropy-coded data escapes 0xFF as 0xFF 0x00). Searched from the end, where it
/// usually is; data some phones append after it does not matter.
pub fn jpeg_has_end(bytes: &[u8], scan_offset: usize) -> bool {
    bytes
        .get(scan_offset..)
        .is_some_and(|scan| scan.windows(2).rev().any(|w| w == [0xFF, 0xD9]))
}

fn read_jpeg(bytes: &[u8]) -> Result<Header, MediaError> {
    let mut pos = 2; // after SOI
    let mut size = None;
    let mut orientation = None;
    loop {
        match bytes.get(pos) {
            None => return Err(MediaError::Incomplete),
            Some(0xFF) => {}
            Some(_) => return Err(MediaError::Damaged),
        }
        // Any number of 0xFF fill bytes may precede a marker.
        while bytes.get(pos) == Some(&0xFF) {
            pos += 1;
        }
        let marker = *bytes.get(pos).ok_or(MediaError::Incomplete)?;
        let segment_start = pos - 1;
        pos += 1;
        match marker {
            // Markers without a length.
            0x01 | 0xD0..=0xD8 => continue,
            // The end of the image before any scan.
            0xD9 => return Err(MediaError::Damaged),
            _ => {}
        }
        let length = usize::from(read_u16(bytes, pos, false).ok_or(MediaError::Incomplete)?);
        if length < 2 {
            return Err(MediaError::Damaged);
        }
        let end = pos + length;
        let data = bytes.get(pos + 2..end).ok_or(MediaError::Incomplete)?;
        match marker {
            0xDA => {
                let (width, height) = size.ok_or(MediaError::Damaged)?;
                return Ok(Header {
                    format: PhotoFormat::Jpeg,
                    width,
                    height,
                    orientation: orientation.unwrap_or(1),
                    scan_offset: segment_start,
                });
            }
            // Start of frame (all coding processes); C4, C8 and CC are other tables.
            0xC0..=0xCF if !matches!(marker, 0xC4 | 0xC8 | 0xCC) => {
                let height = read_u16(data, 1, false).ok_or(MediaError::Damaged)?;
                let width = read_u16(data, 3, false).ok_or(MediaError::Damaged)?;
                size = Some((u32::from(width), u32::from(height)));
            }
            0xE1 if orientation.is_none() => {
                if let Some(tiff) = data.strip_prefix(EXIF_PREFIX) {
                    orientation = tiff_orientation(tiff);
                }
            }
            _ => {}
        }
        pos = end;
    }
}

fn read_png(bytes: &[u8]) -> Result<Header, MediaError> {
    let mut pos = PNG_SIGNATURE.len();
    let mut size = None;
    let mut orientation = None;
    loop {
        let length = read_u32(bytes, pos, false).ok_or(MediaError::Incomplete)? as usize;
        let kind = bytes.get(pos + 4..pos + 8).ok_or(MediaError::Incomplete)?;
        let data_start = pos + 8;
        let data_end = data_start.checked_add(length).ok_or(MediaError::Damaged)?;
        match kind {
            b"IHDR" => {
                let data = bytes
                    .get(data_start..data_end)
                    .ok_or(MediaError::Incomplete)?;
                let width = read_u32(data, 0, false).ok_or(MediaError::Damaged)?;
                let height = read_u32(data, 4, false).ok_or(MediaError::Damaged)?;
                size = Some((width, height));
            }
            b"eXIf" => {
                let data = bytes
                    .get(data_start..data_end)
                    .ok_or(MediaError::Incomplete)?;
                // Some writers keep the JPEG-style prefix.
                let tiff = data.strip_prefix(EXIF_PREFIX).unwrap_or(data);
                orientation = tiff_orientation(tiff);
            }
            b"IDAT" | b"IEND" => {
                let (width, height) = size.ok_or(MediaError::Damaged)?;
                return Ok(Header {
                    format: PhotoFormat::Png,
                    width,
                    height,
                    orientation: orientation.unwrap_or(1),
                    scan_offset: 0,
                });
            }
            _ if size.is_none() => return Err(MediaError::Damaged), // IHDR must come first
            _ => {}
        }
        pos = data_end.checked_add(4).ok_or(MediaError::Damaged)?; // skip the CRC
    }
}

/// The orientation tag of IFD0 in a TIFF structure (the body of an EXIF block), if it
/// holds a valid value.
pub fn tiff_orientation(tiff: &[u8]) -> Option<u8> {
    let little = match tiff.get(0..2)? {
        b"II" => true,
        b"MM" => false,
        _ => return None,
    };
    if read_u16(tiff, 2, little)? != 42 {
        return None;
    }
    let ifd = read_u32(tiff, 4, little)? as usize;
    let count = usize::from(read_u16(tiff, ifd, little)?);
    for index in 0..count {
        let entry = ifd + 2 + index * 12;
        if read_u16(tiff, entry, little)? != ORIENTATION_TAG {
            continue;
        }
        let value = match read_u16(tiff, entry + 2, little)? {
            3 => read_u16(tiff, entry + 8, little)?, // SHORT
            4 => u16::try_from(read_u32(tiff, entry + 8, little)?).ok()?, // LONG, seen in the wild
            _ => return None,
        };
        return u8::try_from(value).ok().filter(|v| (1..=8).contains(v));
    }
    None
}

fn read_u16(bytes: &[u8], at: usize, little: bool) -> Option<u16> {
    let b: [u8; 2] = bytes.get(at..at.checked_add(2)?)?.try_into().ok()?;
    Some(if little {
        u16::from_le_bytes(b)
    } else {
        u16::from_be_bytes(b)
    })
}

fn read_u32(bytes: &[u8], at: usize, little: bool) -> Option<u32> {
    let b: [u8; 4] = bytes.get(at..at.checked_add(4)?)?.try_into().ok()?;
    Some(if little {
        u32::from_le_bytes(b)
    } else {
        u32::from_be_bytes(b)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiff_with_orientation(little: bool, value: u16) -> Vec<u8> {
        let w16 = |v: u16| {
            if little {
                v.to_le_bytes()
            } else {
                v.to_be_bytes()
            }
        };
        let w32 = |v: u32| {
            if little {
                v.to_le_bytes()
            } else {
                v.to_be_bytes()
            }
        };
        let mut t = Vec::new();
        t.extend_from_slice(if little { b"II" } else { b"MM" });
        t.extend_from_slice(&w16(42));
        t.extend_from_slice(&w32(8));
        t.extend_from_slice(&w16(1));
        t.extend_from_slice(&w16(ORIENTATION_TAG));
        t.extend_from_slice(&w16(3));
        t.extend_from_slice(&w32(1));
        t.extend_from_slice(&w16(value));
        t.extend_from_slice(&[0, 0]);
        t.extend_from_slice(&w32(0));
        t
    }

    #[test]
    fn reads_orientation_in_both_byte_orders() {
        assert_eq!(tiff_orientation(&tiff_with_orientation(true, 6)), Some(6));
        assert_eq!(tiff_orientation(&tiff_with_orientation(false, 8)), Some(8));
        assert_eq!(tiff_orientation(&tiff_with_orientation(true, 9)), None);
        assert_eq!(tiff_orientation(&tiff_with_orientation(true, 0)), None);
    }

    #[test]
    fn truncated_tiff_is_ignored_not_a_panic() {
        let tiff = tiff_with_orientation(true, 6);
        for len in 0..tiff.len() {
            let _ = tiff_orientation(&tiff[..len]);
        }
        // An IFD offset pointing far outside the block.
        let mut far = tiff.clone();
        far[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(tiff_orientation(&far), None);
    }

    #[test]
    fn sniffs_formats() {
        assert_eq!(sniff(&[]), Err(MediaError::Empty));
        assert_eq!(sniff(b"GIF89a......"), Err(MediaError::NotAPhoto));
        assert_eq!(sniff(&[0xFF, 0xD8]), Err(MediaError::Incomplete));
        assert_eq!(sniff(b"\x89PNG"), Err(MediaError::Incomplete));
        assert_eq!(sniff(&[0xFF, 0xD8, 0xFF, 0xE0]), Ok(PhotoFormat::Jpeg));
    }

    #[test]
    fn every_prefix_of_a_jpeg_header_is_an_error_not_a_panic() {
        // SOI, APP1 with orientation 6, SOF0 of 3x2, SOS.
        let tiff = tiff_with_orientation(false, 6);
        let mut jpeg = vec![0xFF, 0xD8, 0xFF, 0xE1];
        jpeg.extend_from_slice(&((2 + 6 + tiff.len()) as u16).to_be_bytes());
        jpeg.extend_from_slice(EXIF_PREFIX);
        jpeg.extend_from_slice(&tiff);
        jpeg.extend_from_slice(&[0xFF, 0xC0, 0, 11, 8, 0, 2, 0, 3, 1, 1, 0x11, 0]);
        jpeg.extend_from_slice(&[0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 63, 0]);
        let header = read_header(&jpeg).expect("complete header");
        assert_eq!((header.width, header.height, header.orientation), (3, 2, 6));
        for len in 0..jpeg.len() - 10 {
            assert!(read_header(&jpeg[..len]).is_err(), "prefix of {len} bytes");
        }
    }
}
