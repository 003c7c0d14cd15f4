//! Fixtures built in code: photo-like images, JPEGs with chosen EXIF blocks, and a reader
//! of JPEG segments to check what an output carries.
#![allow(dead_code)] // each test file uses part of it

use image::{ImageBuffer, Rgb, RgbImage};
use jpeg_encoder::{ColorType, Encoder};

/// A deterministic pseudo-random generator (no dependency, same bytes every run).
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next_u32(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next_u32() as u8).collect()
    }
}

/// A photo-like RGB image: gradients, edges and noise, so that JPEG sizes are realistic.
pub fn photo_like(width: u32, height: u32) -> RgbImage {
    let mut rng = Lcg(7);
    ImageBuffer::from_fn(width, height, |x, y| {
        let fx = x as f32 / width as f32;
        let fy = y as f32 / height as f32;
        let stripes = if (x / 37 + y / 53) % 2 == 0 {
            40.0
        } else {
            0.0
        };
        let circle = if ((fx - 0.5).powi(2) + (fy - 0.5).powi(2)) < 0.04 {
            60.0
        } else {
            0.0
        };
        let noise = (rng.next_u32() % 12) as f32;
        let r = 60.0 + 120.0 * fx + stripes + noise;
        let g = 50.0 + 100.0 * fy + circle + noise;
        let b = 90.0 + 60.0 * (fx * 9.0).sin() * (fy * 7.0).cos() + noise;
        Rgb([
            r.min(255.0) as u8,
            g.min(255.0) as u8,
            b.clamp(0.0, 255.0) as u8,
        ])
    })
}

/// Encodes `image` as a JPEG (quality 92), with `app1` as an APP1 segment when given.
pub fn jpeg(image: &RgbImage, app1: Option<&[u8]>, progressive: bool) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = Encoder::new(&mut out, 92);
    encoder.set_progressive(progressive);
    if let Some(segment) = app1 {
        encoder.add_app_segment(1, segment).expect("APP1 fits");
    }
    encoder
        .encode(
            image.as_raw(),
            image.width() as u16,
            image.height() as u16,
            ColorType::Rgb,
        )
        .expect("fixture encodes");
    out
}

/// An EXIF APP1 body ("Exif\0\0" + little-endian TIFF) with IFD0 holding `orientation`
/// and, when `gps` is set, a GPS IFD with a position and a processing method "GPS".
pub fn exif_block(orientation: u16, gps: bool) -> Vec<u8> {
    let mut t: Vec<u8> = Vec::new();
    t.extend_from_slice(b"II");
    t.extend_from_slice(&42u16.to_le_bytes());
    t.extend_from_slice(&8u32.to_le_bytes());
    let entry = |t: &mut Vec<u8>, tag: u16, kind: u16, count: u32, value: [u8; 4]| {
        t.extend_from_slice(&tag.to_le_bytes());
        t.extend_from_slice(&kind.to_le_bytes());
        t.extend_from_slice(&count.to_le_bytes());
        t.extend_from_slice(&value);
    };
    // IFD0 at 8: 1 or 2 entries, then the next-IFD offset (0).
    let ifd0_entries: u16 = if gps { 2 } else { 1 };
    t.extend_from_slice(&ifd0_entries.to_le_bytes());
    let o = orientation.to_le_bytes();
    entry(&mut t, 0x0112, 3, 1, [o[0], o[1], 0, 0]);
    let gps_ifd = 8 + 2 + 12 * u32::from(ifd0_entries) + 4;
    if gps {
        entry(&mut t, 0x8825, 4, 1, gps_ifd.to_le_bytes());
    }
    t.extend_from_slice(&0u32.to_le_bytes());
    if gps {
        // GPS IFD: LatitudeRef "N", Latitude (3 rationals), ProcessingMethod "ASCII\0\0\0GPS".
        let entries = 3u32;
        let data = gps_ifd + 2 + 12 * entries + 4;
        t.extend_from_slice(&(entries as u16).to_le_bytes());
        entry(&mut t, 0x0001, 2, 2, *b"N\0\0\0");
        entry(&mut t, 0x0002, 5, 3, data.to_le_bytes());
        entry(&mut t, 0x001B, 7, 11, (data + 24).to_le_bytes());
        t.extend_from_slice(&0u32.to_le_bytes());
        for (num, den) in [(51u32, 1u32), (30, 1), (1234, 100)] {
            t.extend_from_slice(&num.to_le_bytes());
            t.extend_from_slice(&den.to_le_bytes());
        }
        t.extend_from_slice(b"ASCII\0\0\0GPS");
    }
    let mut block = b"Exif\0\0".to_vec();
    block.extend_from_slice(&t);
    block
}

/// The markers of a JPEG's segments before its first scan, with their bodies.
pub fn segments(jpeg: &[u8]) -> Vec<(u8, Vec<u8>)> {
    assert_eq!(&jpeg[..2], [0xFF, 0xD8], "starts with SOI");
    let mut pos = 2;
    let mut out = Vec::new();
    while pos + 4 <= jpeg.len() {
        assert_eq!(jpeg[pos], 0xFF, "marker at {pos}");
        let marker = jpeg[pos + 1];
        let len = usize::from(u16::from_be_bytes([jpeg[pos + 2], jpeg[pos + 3]]));
        out.push((marker, jpeg[pos + 4..pos + 2 + len].to_vec()));
        if marker == 0xDA {
            break;
        }
        pos += 2 + len;
    }
    out
}

/// Asserts that a JPEG carries no metadata: its only APPn segment is the JFIF APP0.
pub fn assert_no_metadata(jpeg: &[u8]) {
    for (marker, body) in segments(jpeg) {
        if (0xE0..=0xEF).contains(&marker) {
            assert_eq!(marker, 0xE0, "unexpected APP{} segment", marker - 0xE0);
            assert!(body.starts_with(b"JFIF\0"), "APP0 is JFIF");
        }
        assert_ne!(marker, 0xFE, "no COM segment");
    }
    assert!(!contains(jpeg, b"Exif"), "no EXIF");
    assert!(!contains(jpeg, b"GPS"), "no GPS bytes");
    assert!(!contains(jpeg, b"http://ns.adobe.com/xap"), "no XMP");
    assert!(!contains(jpeg, b"ICC_PROFILE"), "no ICC");
}

pub fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Decodes a JPEG with the image crate (an independent check of our output).
pub fn decode(jpeg: &[u8]) -> RgbImage {
    image::load_from_memory_with_format(jpeg, image::ImageFormat::Jpeg)
        .expect("output decodes")
        .to_rgb8()
}
