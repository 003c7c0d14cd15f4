//! The photo analyser's public face for the shell and other features.

export { assistantDraftHtml, textToHtml } from './notes'
export { PhotoAnalyserProvider, usePhotoAnalyser, type AnalyserTarget } from './photo-analyser-context'
