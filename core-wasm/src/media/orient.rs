//! Turns a pixel buffer upright according to its EXIF orientation (all eight values).
//!
//! Applied after shrinking, so it moves the fewest pixels.

/// The upright size of a `width` x `height` image stored with `orientation`.
pub fn upright_size(width: u32, height: u32, orientation: u8) -> (u32, u32) {
    if (5..=8).contains(&orientation) {
        (height, width)
    } else {
        (width, height)
    }
}

/// Returns the upright image (and its size) for pixels stored with `orientation`;
/// `channels` bytes per pixel. Orientation 1 and unknown values return the input unchanged.
pub fn apply(
    pixels: Vec<u8>,
    width: u32,
    height: u32,
    channels: usize,
    orientation: u8,
) -> (Vec<u8>, u32, u32) {
    if !(2..=8).contains(&orientation)
        || pixels.len() != width as usize * height as usize * channels
    {
        return (pixels, width, height);
    }
    let (w, h) = (width as usize, height as usize);
    let (out_w, out_h) = upright_size(width, height, orientation);
    let mut out = vec![0u8; pixels.len()];
    // For each upright pixel (x, y), the stored pixel it comes from.
    let source = |x: usize, y: usize| -> (usize, usize) {
        match orientation {
            2 => (w - 1 - x, y),         // mirrored
            3 => (w - 1 - x, h - 1 - y), // rotated 180
            4 => (x, h - 1 - y),         // mirrored vertically
            5 => (y, x),                 // transposed
            6 => (y, h - 1 - x),         // needs 90 clockwise
            7 => (w - 1 - y, h - 1 - x), // transversed
            _ => (w - 1 - y, x),         // 8: needs 90 counter-clockwise
        }
    };
    let row_len = out_w as usize * channels;
    for (y, row) in out.chunks_exact_mut(row_len).enumerate() {
        for (x, pixel) in row.chunks_exact_mut(channels).enumerate() {
            let (sx, sy) = source(x, y);
            let at = (sy * w + sx) * channels;
            pixel.copy_from_slice(&pixels[at..at + channels]);
        }
    }
    (out, out_w, out_h)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 3x2 gray image whose pixel values are their stored index.
    fn stored() -> Vec<u8> {
        vec![0, 1, 2, 3, 4, 5]
    }

    #[test]
    fn all_orientations_match_their_definition() {
        // Stored:  0 1 2
        //          3 4 5
        let cases: [(u8, (u32, u32), [u8; 6]); 8] = [
            (1, (3, 2), [0, 1, 2, 3, 4, 5]),
            (2, (3, 2), [2, 1, 0, 5, 4, 3]),
            (3, (3, 2), [5, 4, 3, 2, 1, 0]),
            (4, (3, 2), [3, 4, 5, 0, 1, 2]),
            (5, (2, 3), [0, 3, 1, 4, 2, 5]),
            (6, (2, 3), [3, 0, 4, 1, 5, 2]),
            (7, (2, 3), [5, 2, 4, 1, 3, 0]),
            (8, (2, 3), [2, 5, 1, 4, 0, 3]),
        ];
        for (orientation, size, expected) in cases {
            let (out, w, h) = apply(stored(), 3, 2, 1, orientation);
            assert_eq!((w, h), size, "orientation {orientation}");
            assert_eq!(out, expected, "orientation {orientation}");
        }
    }

    #[test]
    fn wrong_length_is_returned_unchanged() {
        let (out, w, h) = apply(vec![1, 2, 3], 3, 2, 1, 6);
        assert_eq!((out, w, h), (vec![1, 2, 3], 3, 2));
    }
}
