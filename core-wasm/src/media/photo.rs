//! Photo preparation: a camera or gallery photo becomes a small, upright JPEG without any
//! metadata (no EXIF, so no GPS position, no XMP, no ICC), ready to send to the AI.
//!
//! Pipeline: read the header (size, orientation) -> refuse decompression bombs -> decode
//! (`image`: zune-jpeg or png) -> shrink (`fast_image_resize`) -> turn upright -> encode
//! (`jpeg-encoder`, progressive, 4:2:0 chroma and optimised Huffman tables, which is what makes its
//! output as small as the browser's own encoder; `image`'s encoder uses 4:2:2 and is 40-50%
//! larger).

use std::io::Cursor;

use fast_image_resize as fr;
use image::codecs::jpeg::JpegDecoder;
use image::codecs::png::PngDecoder;
use image::{DynamicImage, ImageDecoder, ImageError, Limits};
use jpeg_encoder::{ColorType, Encoder, SamplingFactor};
use serde::Serialize;

use super::{exif, orient, MediaError};

/// Longest side of a prepared photo, in pixels, unless the caller asks otherwise.
pub const MAX_SIDE: u32 = crate::limits::PHOTO_MAX_SIDE;
/// JPEG quality of a prepared photo (1-100).
pub const QUALITY: u8 = crate::limits::PHOTO_QUALITY;
/// Largest photo accepted, in pixels (100 megapixels): a few kilobytes of PNG can claim a
/// gigapixel, so the size is checked from the header before anything is allocated.
pub const MAX_PIXELS: u64 = 100_000_000;
/// Largest side a JPEG can have.
const MAX_JPEG_SIDE: u32 = u16::MAX as u32;

/// Resampling filter for shrinking. CatmullRom is as sharp as Lanczos3 for photos and
/// cheaper (4 taps against 6); see the `media` bench.
const FILTER: fr::FilterType = fr::FilterType::CatmullRom;

/// The two formats phones and browsers produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PhotoFormat {
    Jpeg,
    Png,
}

/// What a photo's header says, read without decoding it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PhotoInfo {
    /// Size as stored in the file.
    pub width: u32,
    pub height: u32,
    /// EXIF orientation 1-8 (1 when absent).
    pub orientation: u8,
    pub format: PhotoFormat,
    /// Size once turned upright (width and height swapped for orientations 5-8), which is
    /// what `createImageBitmap` and [`prepare_photo`] produce before shrinking.
    pub display_width: u32,
    pub display_height: u32,
}

/// Reads a photo's size, orientation and format from its header, cheaply.
pub fn photo_info(bytes: &[u8]) -> Result<PhotoInfo, MediaError> {
    let header = exif::read_header(bytes)?;
    let (display_width, display_height) =
        orient::upright_size(header.width, header.height, header.orientation);
    Ok(PhotoInfo {
        width: header.width,
        height: header.height,
        orientation: header.orientation,
        format: header.format,
        display_width,
        display_height,
    })
}

/// Decodes a JPEG or PNG, turns it upright, shrinks it so that its longest side is at most
/// `max_side` (never enlarging) and encodes it as a metadata-free JPEG of `quality`
/// (clamped to 1-100).
pub fn prepare_photo(bytes: &[u8], max_side: u32, quality: u8) -> Result<Vec<u8>, MediaError> {
    if max_side == 0 {
        return Err(MediaError::InvalidArgument(
            "the longest side must be at least 1 pixel",
        ));
    }
    let header = exif::read_header(bytes)?;
    check_pixel_count(header.width, header.height)?;
    if header.format == PhotoFormat::Jpeg && !exif::jpeg_has_end(bytes, header.scan_offset) {
        return Err(MediaError::Incomplete);
    }

    let image = decode(bytes, &header)?;
    let (width, height) = (image.width(), image.height());
    let (pixels, channels) = into_gray_or_rgb(image);

    let (target_w, target_h) = shrunk_size(width, height, max_side.min(MAX_JPEG_SIDE));
    let pixels = if (target_w, target_h) == (width, height) {
        pixels
    } else {
        resize(pixels, width, height, channels, target_w, target_h)?
    };
    let (pixels, width, height) =
        orient::apply(pixels, target_w, target_h, channels, header.orientation);

    let color = if channels == 1 {
        ColorType::Luma
    } else {
        ColorType::Rgb
    };
    encode(&pixels, width, height, color, quality)
}

/// Encodes RGBA pixels (as `getImageData` returns them; alpha is ignored) as a
/// metadata-free JPEG with the same settings as [`prepare_photo`].
pub fn encode_jpeg_rgba(
    rgba: &[u8],
    width: u32,
    height: u32,
    quality: u8,
) -> Result<Vec<u8>, MediaError> {
    let bad = || MediaError::BadPixels {
        width,
        height,
        len: rgba.len(),
    };
    if width == 0 || height == 0 || width > MAX_JPEG_SIDE || height > MAX_JPEG_SIDE {
        return Err(bad());
    }
    check_pixel_count(width, height)?;
    if rgba.len() as u64 != u64::from(width) * u64::from(height) * 4 {
        return Err(bad());
    }
    encode(rgba, width, height, ColorType::Rgba, quality)
}

/// The size that fits `width` x `height` within `max_side`, keeping the aspect ratio; the
/// longest side becomes exactly `max_side`, and a smaller image is left alone.
pub fn shrunk_size(width: u32, height: u32, max_side: u32) -> (u32, u32) {
    let longest = width.max(height);
    if longest <= max_side || max_side == 0 {
        return (width, height);
    }
    let scale = |side: u32| -> u32 {
        let scaled =
            (u64::from(side) * u64::from(max_side) + u64::from(longest) / 2) / u64::from(longest);
        // At most max_side, so it fits in u32.
        u32::try_from(scaled).unwrap_or(max_side).clamp(1, max_side)
    };
    (scale(width), scale(height))
}

fn check_pixel_count(width: u32, height: u32) -> Result<(), MediaError> {
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        Err(MediaError::TooManyPixels { width, height })
    } else {
        Ok(())
    }
}

fn decode(bytes: &[u8], header: &exif::Header) -> Result<DynamicImage, MediaError> {
    let to_media = |e: ImageError| media_error(e, header);
    // image's default limits (512 MB per allocation) also catch a header that lied.
    let limits = Limits::default();
    match header.format {
        PhotoFormat::Jpeg => {
            let mut decoder = JpegDecoder::new(Cursor::new(bytes)).map_err(to_media)?;
            decoder.set_limits(limits).map_err(to_media)?;
            DynamicImage::from_decoder(decoder).map_err(to_media)
        }
        PhotoFormat::Png => {
            let decoder = PngDecoder::with_limits(Cursor::new(bytes), limits).map_err(to_media)?;
            DynamicImage::from_decoder(decoder).map_err(to_media)
        }
    }
}

fn media_error(error: ImageError, header: &exif::Header) -> MediaError {
    match error {
        ImageError::IoError(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
            MediaError::Incomplete
        }
        ImageError::Limits(_) => MediaError::TooManyPixels {
            width: header.width,
            height: header.height,
        },
        _ => MediaError::Damaged,
    }
}

/// The decoded pixels as 8-bit gray (1 byte per pixel) or RGB (3), the two layouts the
/// resizer and the encoder handle. Transparency (screenshots) is flattened onto white, as
/// a JPEG has none and black would hide dark text.
fn into_gray_or_rgb(image: DynamicImage) -> (Vec<u8>, usize) {
    match image {
        DynamicImage::ImageRgb8(rgb) => (rgb.into_raw(), 3),
        DynamicImage::ImageLuma8(gray) => (gray.into_raw(), 1),
        other if other.color().has_alpha() => (flatten_on_white(&other.to_rgba8()), 3),
        other if other.color().channel_count() == 1 => (other.to_luma8().into_raw(), 1),
        other => (other.to_rgb8().into_raw(), 3),
    }
}

fn flatten_on_white(rgba: &[u8]) -> Vec<u8> {
    let mut rgb = Vec::with_capacity(rgba.len() / 4 * 3);
    for px in rgba.chunks_exact(4) {
        let alpha = u32::from(px[3]);
        for &c in &px[..3] {
            let blended = (u32::from(c) * alpha + 255 * (255 - alpha) + 127) / 255;
            rgb.push(blended as u8); // at most 255
        }
    }
    rgb
}

fn resize(
    pixels: Vec<u8>,
    width: u32,
    height: u32,
    channels: usize,
    target_w: u32,
    target_h: u32,
) -> Result<Vec<u8>, MediaError> {
    let pixel_type = if channels == 1 {
        fr::PixelType::U8
    } else {
        fr::PixelType::U8x3
    };
    let internal = |e: &dyn std::fmt::Display| MediaError::Internal(format!("resize: {e}"));
    let src = fr::images::Image::from_vec_u8(width, height, pixels, pixel_type)
        .map_err(|e| internal(&e))?;
    let mut dst = fr::images::Image::new(target_w, target_h, pixel_type);
    let options = fr::ResizeOptions::new().resize_alg(fr::ResizeAlg::Convolution(FILTER));
    fr::Resizer::new()
        .resize(&src, &mut dst, &options)
        .map_err(|e| internal(&e))?;
    Ok(dst.into_vec())
}

fn encode(
    pixels: &[u8],
    width: u32,
    height: u32,
    color: ColorType,
    quality: u8,
) -> Result<Vec<u8>, MediaError> {
    let bad = || MediaError::BadPixels {
        width,
        height,
        len: pixels.len(),
    };
    let w = u16::try_from(width).map_err(|_| bad())?;
    let h = u16::try_from(height).map_err(|_| bad())?;
    // A photo at quality 80 takes roughly 1.2 bits per pixel; reserving that avoids most
    // regrowth of the output.
    let mut out = Vec::with_capacity(width as usize * height as usize / 6 + 1024);
    let mut encoder = Encoder::new(&mut out, quality.clamp(1, 100));
    encoder.set_sampling_factor(SamplingFactor::R_4_2_0);
    // Optimised Huffman tables save 5-10%. jpeg-encoder writes them either in sequential
    // per-component scans, which zune-jpeg 0.5 (the image crate's decoder, so any Rust
    // consumer) decodes as garbage when chroma is subsampled, or progressively, which
    // every decoder reads: so progressive, for about 25% more encoding time.
    encoder.set_progressive(true);
    encoder.set_optimized_huffman_tables(true);
    encoder
        .encode(pixels, w, h, color)
        .map_err(|e| MediaError::Internal(format!("JPEG encoding: {e}")))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shrinks_longest_side_exactly_and_never_enlarges() {
        assert_eq!(shrunk_size(4000, 3000, 1600), (1600, 1200));
        assert_eq!(shrunk_size(3000, 4000, 1600), (1200, 1600));
        assert_eq!(shrunk_size(1600, 900, 1600), (1600, 900));
        assert_eq!(shrunk_size(800, 600, 1600), (800, 600));
        assert_eq!(shrunk_size(10_000, 1, 1600), (1600, 1));
    }

    #[test]
    fn flattening_blends_onto_white() {
        assert_eq!(
            flatten_on_white(&[0, 0, 0, 0, 0, 0, 0, 255, 10, 20, 30, 128]),
            vec![255, 255, 255, 0, 0, 0, 132, 137, 142]
        );
    }
}
