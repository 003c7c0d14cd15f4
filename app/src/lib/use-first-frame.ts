//! The app's side of the first frame (lib/first-frame.ts): while it is shown, the app's own
//! waiting states draw nothing (the frame is the page's waiting state); the first real frame
//! the app draws (the shell, the public pages' layout, an error page) removes it in the same
//! paint.

import { useLayoutEffect } from 'react'

function frameElement(): HTMLElement | null {
  return typeof document === 'undefined' ? null : document.getElementById('first-frame')
}

/** Whether the first frame is on screen. */
export function firstFrameShown(): boolean {
  return !!frameElement()?.firstChild
}

/** Removes the first frame (and its place) when the calling component is first drawn. */
export function useFirstFrameGone() {
  useLayoutEffect(() => {
    frameElement()?.remove()
  }, [])
}
