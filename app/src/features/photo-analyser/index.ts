//! The photo analyser's public face for the shell: its provider. Features open it through
//! `usePhotoAnalyser()` in `lib/capture.tsx`.

export { PhotoAnalyserProvider } from './photo-analyser-context'
