//! Photo preparation on fixtures built in code: orientations, progressive, CMYK and PNG
//! inputs, metadata removal, sizes, and bad bytes that must give an error, never a panic.

mod support;

use core_wasm::media::{encode_jpeg_rgba, photo_info, prepare_photo, MediaError, PhotoFormat};
use image::{imageops, DynamicImage, ImageBuffer, Rgb, RgbImage};
use jpeg_encoder::{ColorType, Encoder};
use support::*;

const RED: Rgb<u8> = Rgb([230, 20, 20]);
const GRAY: Rgb<u8> = Rgb([128, 128, 128]);

/// The upright image every orientation fixture should come out as: 96x64, gray, with a
/// red block in the top-left corner.
fn upright_fixture() -> RgbImage {
    ImageBuffer::from_fn(96, 64, |x, y| if x < 24 && y < 16 { RED } else { GRAY })
}

/// How a camera stores `upright` when it writes orientation `n`: the inverse of the
/// transform the orientation asks for.
fn stored_for(upright: &RgbImage, n: u8) -> RgbImage {
    match n {
        1 => upright.clone(),
        2 => imageops::flip_horizontal(upright),
        3 => imageops::rotate180(upright),
        4 => imageops::flip_vertical(upright),
        5 => imageops::flip_horizontal(&imageops::rotate90(upright)), // transpose
        6 => imageops::rotate270(upright),
        7 => imageops::rotate180(&imageops::flip_horizontal(&imageops::rotate90(upright))),
        8 => imageops::rotate90(upright),
        _ => unreachable!(),
    }
}

fn is_red(p: &Rgb<u8>) -> bool {
    p[0] > 180 && p[1] < 80 && p[2] < 80
}

fn is_gray(p: &Rgb<u8>) -> bool {
    p.0.iter().all(|&c| (100..=156).contains(&c))
}

#[test]
fn all_eight_orientations_come_out_upright() {
    let upright = upright_fixture();
    for n in 1..=8u8 {
        let stored = stored_for(&upright, n);
        // The fixture itself agrees with the image crate's reading of the orientation.
        let mut check = DynamicImage::ImageRgb8(stored.clone());
        check.apply_orientation(image::metadata::Orientation::from_exif(n).expect("1-8"));
        assert_eq!(check.to_rgb8(), upright, "fixture for orientation {n}");

        let input = jpeg(&stored, Some(&exif_block(u16::from(n), false)), false);
        let info = photo_info(&input).expect("info");
        assert_eq!(info.orientation, n);
        // The header alone is enough (the app reads only the start of big files).
        let scan = input
            .windows(2)
            .position(|w| w == [0xFF, 0xDA])
            .expect("SOS");
        assert_eq!(photo_info(&input[..scan + 20]), Ok(info));
        assert_eq!((info.width, info.height), stored.dimensions());
        assert_eq!((info.display_width, info.display_height), (96, 64));

        let output = prepare_photo(&input, 1600, 90).expect("prepared");
        assert_no_metadata(&output);
        let out = decode(&output);
        assert_eq!(out.dimensions(), (96, 64), "orientation {n}");
        assert!(
            is_red(out.get_pixel(6, 4)),
            "orientation {n}: red block top-left"
        );
        for (x, y) in [(90, 4), (6, 60), (90, 60)] {
            assert!(
                is_gray(out.get_pixel(x, y)),
                "orientation {n}: gray at ({x},{y})"
            );
        }
    }
}

#[test]
fn orientation_applies_after_shrinking() {
    // A 2000x1000 landscape stored for orientation 6 (so 1000x2000 in the file).
    let upright: RgbImage =
        ImageBuffer::from_fn(
            2000,
            1000,
            |x, y| if x < 400 && y < 200 { RED } else { GRAY },
        );
    let input = jpeg(&stored_for(&upright, 6), Some(&exif_block(6, false)), false);
    let out = decode(&prepare_photo(&input, 1600, 85).expect("prepared"));
    assert_eq!(out.dimensions(), (1600, 800));
    assert!(is_red(out.get_pixel(100, 60)));
    assert!(is_gray(out.get_pixel(1500, 700)));
}

#[test]
fn gps_in_the_input_is_absent_from_the_output() {
    let input = jpeg(&photo_like(640, 480), Some(&exif_block(1, true)), false);
    // The fixture really carries EXIF with a GPS IFD, as the image crate reads it.
    let mut decoder =
        image::codecs::jpeg::JpegDecoder::new(std::io::Cursor::new(&input)).expect("fixture");
    let exif = image::ImageDecoder::exif_metadata(&mut decoder)
        .expect("exif")
        .expect("some");
    assert!(contains(&exif, b"GPS"));
    assert!(contains(&input, b"Exif\0\0"));

    let output = prepare_photo(&input, 1600, 80).expect("prepared");
    assert_no_metadata(&output);
    let mut decoder =
        image::codecs::jpeg::JpegDecoder::new(std::io::Cursor::new(&output)).expect("output");
    assert_eq!(
        image::ImageDecoder::exif_metadata(&mut decoder).expect("read"),
        None
    );
}

#[test]
fn longest_side_is_capped_and_never_enlarged() {
    let cases = [
        ((3000, 2000), 1600, (1600, 1067)),
        ((2000, 3000), 1000, (667, 1000)),
        ((800, 600), 1600, (800, 600)),
        ((1600, 1200), 1600, (1600, 1200)),
    ];
    for ((w, h), max_side, expected) in cases {
        let input = jpeg(&photo_like(w, h), None, false);
        let out = decode(&prepare_photo(&input, max_side, 80).expect("prepared"));
        assert_eq!(out.dimensions(), expected, "{w}x{h} within {max_side}");
    }
}

#[test]
fn shrinking_keeps_the_picture() {
    // Left half dark, right half light: a resize that mixes up rows or channels fails.
    let input_image: RgbImage = ImageBuffer::from_fn(3200, 2400, |x, _| {
        if x < 1600 {
            Rgb([30, 60, 90])
        } else {
            Rgb([220, 200, 180])
        }
    });
    let out = decode(&prepare_photo(&jpeg(&input_image, None, false), 1600, 80).expect("ok"));
    let left = out.get_pixel(400, 600);
    let right = out.get_pixel(1200, 600);
    for (got, want) in [(left, [30, 60, 90]), (right, [220, 200, 180])] {
        for c in 0..3 {
            assert!(
                (i32::from(got[c]) - want[c]).abs() <= 6,
                "{got:?} vs {want:?}"
            );
        }
    }
}

#[test]
fn progressive_jpeg_is_prepared() {
    let source = photo_like(2000, 1500);
    let input = jpeg(&source, Some(&exif_block(3, true)), true);
    // Really progressive: SOF2.
    assert!(segments(&input).iter().any(|(m, _)| *m == 0xC2));
    let output = prepare_photo(&input, 1600, 80).expect("prepared");
    assert_no_metadata(&output);
    let out = decode(&output);
    assert_eq!(out.dimensions(), (1600, 1200));
    // Orientation 3 turns it round: the source's top-left colour is now bottom-right.
    let src = source.get_pixel(10, 10);
    let got = out.get_pixel(1590, 1190);
    for c in 0..3 {
        assert!(
            (i32::from(src[c]) - i32::from(got[c])).abs() < 40,
            "{src:?} vs {got:?}"
        );
    }
}

#[test]
fn cmyk_jpeg_is_prepared_with_the_right_colours() {
    // Top half white paper (no ink), bottom half black ink only.
    let (w, h) = (320u16, 240u16);
    let mut cmyk = Vec::with_capacity(usize::from(w) * usize::from(h) * 4);
    for y in 0..h {
        for _ in 0..w {
            cmyk.extend_from_slice(if y < h / 2 {
                &[0, 0, 0, 0]
            } else {
                &[0, 0, 0, 255]
            });
        }
    }
    for color in [ColorType::Cmyk, ColorType::CmykAsYcck] {
        let mut input = Vec::new();
        Encoder::new(&mut input, 90)
            .encode(&cmyk, w, h, color)
            .expect("fixture");
        let out = decode(&prepare_photo(&input, 1600, 80).expect("prepared"));
        assert_eq!(out.dimensions(), (320, 240));
        let top = out.get_pixel(160, 30);
        let bottom = out.get_pixel(160, 210);
        assert!(
            top.0.iter().all(|&c| c > 200),
            "{color:?}: paper is white, got {top:?}"
        );
        assert!(
            bottom.0.iter().all(|&c| c < 60),
            "{color:?}: ink is black, got {bottom:?}"
        );
    }
}

#[test]
fn png_is_prepared_and_transparency_becomes_white() {
    let rgba = image::RgbaImage::from_fn(300, 200, |x, _| {
        if x < 150 {
            image::Rgba([10, 120, 200, 255])
        } else {
            image::Rgba([0, 0, 0, 0])
        }
    });
    let mut input = Vec::new();
    DynamicImage::ImageRgba8(rgba)
        .write_to(
            &mut std::io::Cursor::new(&mut input),
            image::ImageFormat::Png,
        )
        .expect("png fixture");
    let info = photo_info(&input).expect("info");
    assert_eq!(
        (info.width, info.height, info.format),
        (300, 200, PhotoFormat::Png)
    );

    let output = prepare_photo(&input, 1600, 85).expect("prepared");
    assert_no_metadata(&output);
    let out = decode(&output);
    assert_eq!(out.dimensions(), (300, 200));
    let opaque = out.get_pixel(50, 100);
    assert!((i32::from(opaque[2]) - 200).abs() < 12, "{opaque:?}");
    assert!(
        out.get_pixel(250, 100).0.iter().all(|&c| c > 245),
        "transparent is white"
    );

    // A grayscale PNG stays gray (and is encoded as a one-channel JPEG).
    let gray = image::GrayImage::from_fn(64, 48, |x, _| image::Luma([(x * 4) as u8]));
    let mut input = Vec::new();
    DynamicImage::ImageLuma8(gray)
        .write_to(
            &mut std::io::Cursor::new(&mut input),
            image::ImageFormat::Png,
        )
        .expect("png fixture");
    let output = prepare_photo(&input, 32, 85).expect("prepared");
    let out = image::load_from_memory(&output).expect("decodes");
    assert_eq!(out.color(), image::ColorType::L8);
    assert_eq!((out.width(), out.height()), (32, 24));
}

#[test]
fn truncated_files_are_an_error_not_a_panic() {
    let input = jpeg(&photo_like(400, 300), Some(&exif_block(6, true)), false);
    let half = prepare_photo(&input[..input.len() / 2], 1600, 80);
    assert_eq!(half, Err(MediaError::Incomplete));
    assert_eq!(
        half.expect_err("incomplete").to_string(),
        "This photo could not be read: the file is incomplete."
    );
    for cut in (0..input.len()).step_by(97) {
        assert!(
            prepare_photo(&input[..cut], 1600, 80).is_err(),
            "cut at {cut}"
        );
    }
    let progressive = jpeg(&photo_like(400, 300), None, true);
    for cut in (200..progressive.len() - 2).step_by(211) {
        assert!(
            prepare_photo(&progressive[..cut], 1600, 80).is_err(),
            "progressive cut {cut}"
        );
    }

    let mut png = Vec::new();
    DynamicImage::ImageRgb8(photo_like(200, 100))
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .expect("png fixture");
    for cut in (1..png.len() - 1).step_by(53) {
        let result = prepare_photo(&png[..cut], 1600, 80);
        assert!(
            matches!(result, Err(MediaError::Incomplete | MediaError::Damaged)),
            "png cut at {cut}: {result:?}"
        );
    }
}

#[test]
fn garbage_empty_and_damaged_bytes_are_clear_errors() {
    assert_eq!(prepare_photo(&[], 1600, 80), Err(MediaError::Empty));
    assert_eq!(photo_info(&[]), Err(MediaError::Empty));
    let garbage = Lcg(42).bytes(10_000);
    let err = prepare_photo(&garbage, 1600, 80).expect_err("garbage");
    assert_eq!(err.to_string(), "This file is not a JPEG or PNG photo.");
    assert_eq!(photo_info(b"GIF89a.........."), Err(MediaError::NotAPhoto));

    // A JPEG start followed by garbage, and a real JPEG with random bytes overwritten:
    // whatever the result, it must return.
    let mut fake = vec![0xFF, 0xD8, 0xFF];
    fake.extend(Lcg(1).bytes(5000));
    assert!(prepare_photo(&fake, 1600, 80).is_err());
    let mut png = Vec::new();
    DynamicImage::ImageRgb8(photo_like(120, 90))
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .expect("png fixture");
    let inputs = [
        jpeg(&photo_like(160, 120), Some(&exif_block(5, true)), false),
        jpeg(&photo_like(160, 120), Some(&exif_block(7, true)), true),
        png,
    ];
    let mut rng = Lcg(9);
    for i in 0..900 {
        let mut damaged = inputs[i % inputs.len()].clone();
        for _ in 0..4 {
            // Half the time within the headers, where lengths and sizes live.
            let span = if i % 2 == 0 {
                damaged.len().min(400)
            } else {
                damaged.len()
            };
            let at = rng.next_u32() as usize % span;
            damaged[at] = rng.next_u32() as u8;
        }
        let _ = prepare_photo(&damaged, 1600, 80);
        let _ = photo_info(&damaged);
    }
}

#[test]
fn decompression_bombs_are_refused_before_decoding() {
    // A JPEG header claiming 60000x60000 pixels (3.6 gigapixels) in a few bytes.
    let mut bomb = vec![0xFF, 0xD8];
    bomb.extend_from_slice(&[0xFF, 0xC0, 0, 11, 8, 0xEA, 0x60, 0xEA, 0x60, 1, 1, 0x11, 0]);
    bomb.extend_from_slice(&[0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 63, 0, 0, 0, 0xFF, 0xD9]);
    let err = prepare_photo(&bomb, 1600, 80).expect_err("bomb");
    assert_eq!(
        err,
        MediaError::TooManyPixels {
            width: 60000,
            height: 60000
        }
    );
    assert!(err.to_string().contains("too large"), "{err}");
    assert_eq!(photo_info(&bomb).expect("info is cheap").width, 60000);

    // A PNG whose header claims 100000x100000.
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.extend_from_slice(&13u32.to_be_bytes());
    png.extend_from_slice(b"IHDR");
    png.extend_from_slice(&100_000u32.to_be_bytes());
    png.extend_from_slice(&100_000u32.to_be_bytes());
    png.extend_from_slice(&[8, 2, 0, 0, 0, 0, 0, 0, 0]);
    png.extend_from_slice(&0u32.to_be_bytes());
    png.extend_from_slice(b"IDAT");
    assert!(matches!(
        prepare_photo(&png, 1600, 80),
        Err(MediaError::TooManyPixels { width: 100_000, .. })
    ));
}

#[test]
fn bad_arguments_are_errors() {
    let input = jpeg(&photo_like(64, 48), None, false);
    assert!(matches!(
        prepare_photo(&input, 0, 80),
        Err(MediaError::InvalidArgument(_))
    ));
    // Quality is clamped rather than refused.
    assert!(prepare_photo(&input, 1600, 0).is_ok());
    assert!(prepare_photo(&input, 1600, 255).is_ok());
}

#[test]
fn rgba_is_encoded_with_420_chroma_and_smaller_than_image_crate() {
    let rgb = photo_like(1600, 1200);
    let rgba: Vec<u8> = rgb.pixels().flat_map(|p| [p[0], p[1], p[2], 255]).collect();
    let output = encode_jpeg_rgba(&rgba, 1600, 1200, 80).expect("encoded");
    assert_no_metadata(&output);
    let out = decode(&output);
    assert_eq!(out.dimensions(), (1600, 1200));
    let (a, b) = (rgb.get_pixel(800, 600), out.get_pixel(800, 600));
    for c in 0..3 {
        assert!(
            (i32::from(a[c]) - i32::from(b[c])).abs() < 30,
            "{a:?} vs {b:?}"
        );
    }
    // SOF: luma sampled 2x2, chroma 1x1 (4:2:0).
    let sof = segments(&output)
        .into_iter()
        .find(|(m, _)| matches!(*m, 0xC0..=0xC2))
        .expect("frame header")
        .1;
    assert_eq!(sof[5], 3, "three components");
    assert_eq!((sof[7], sof[10], sof[13]), (0x22, 0x11, 0x11));

    let mut theirs = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut theirs, 80)
        .encode_image(&rgb)
        .expect("image crate encodes");
    assert!(
        output.len() < theirs.len(),
        "ours {} bytes, image crate {} bytes",
        output.len(),
        theirs.len()
    );
}

#[test]
fn rgba_with_the_wrong_size_is_refused() {
    assert!(matches!(
        encode_jpeg_rgba(&[0; 15], 2, 2, 80),
        Err(MediaError::BadPixels { len: 15, .. })
    ));
    assert!(encode_jpeg_rgba(&[], 0, 0, 80).is_err());
    assert!(encode_jpeg_rgba(&[0; 4], 70_000, 1, 80).is_err());
    assert!(matches!(
        encode_jpeg_rgba(&[], 20_000, 20_000, 80),
        Err(MediaError::TooManyPixels { .. })
    ));
}

/// CRC-32 (IEEE) as PNG chunks need it.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[test]
fn png_exif_orientation_is_honoured() {
    let upright = upright_fixture();
    let mut png = Vec::new();
    DynamicImage::ImageRgb8(stored_for(&upright, 6))
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .expect("png fixture");
    // Insert an eXIf chunk (the TIFF body, without the JPEG-style prefix) after IHDR.
    let tiff = &exif_block(6, true)[6..];
    let mut chunk = (tiff.len() as u32).to_be_bytes().to_vec();
    let mut body = b"eXIf".to_vec();
    body.extend_from_slice(tiff);
    chunk.extend_from_slice(&body);
    chunk.extend_from_slice(&crc32(&body).to_be_bytes());
    let ihdr_end = 8 + 8 + 13 + 4;
    png.splice(ihdr_end..ihdr_end, chunk);

    let info = photo_info(&png).expect("info");
    assert_eq!(
        (info.orientation, info.display_width, info.display_height),
        (6, 96, 64)
    );
    let output = prepare_photo(&png, 1600, 90).expect("prepared");
    assert_no_metadata(&output);
    let out = decode(&output);
    assert_eq!(out.dimensions(), (96, 64));
    assert!(is_red(out.get_pixel(6, 4)), "red block top-left");
    assert!(is_gray(out.get_pixel(90, 60)));
}
