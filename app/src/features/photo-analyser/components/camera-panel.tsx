//! The Camera tab: a live preview (rear camera on phones, front otherwise), a capture button
//! that takes a JPEG frame, and a file chooser for photos already on the device. The camera
//! runs only while this tab shows; its tracks stop when the tab or the dialog closes.

import { useEffect, useId, useRef, useState } from 'react'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'

export const CAMERA_ERROR = 'Unable to access camera'

type CameraState = 'starting' | 'ready' | 'error'

/** Phones and tablets (a coarse pointer) photograph work with the rear camera. */
function facingMode(): 'environment' | 'user' {
  return window.matchMedia?.('(pointer: coarse)').matches ? 'environment' : 'user'
}

function useCamera(onError: () => void) {
  const video = useRef<HTMLVideoElement>(null)
  const [state, setState] = useState<CameraState>('starting')
  const onErrorRef = useRef(onError)
  useEffect(() => {
    onErrorRef.current = onError
  })

  useEffect(() => {
    let stream: MediaStream | undefined
    let cancelled = false
    const start = async () => {
      try {
        if (!navigator.mediaDevices?.getUserMedia) throw new Error('No camera API')
        stream = await navigator.mediaDevices.getUserMedia({
          audio: false,
          video: { facingMode: { ideal: facingMode() }, width: { ideal: 1920 }, height: { ideal: 1080 } },
        })
        if (cancelled) return
        const element = video.current
        if (element) {
          element.srcObject = stream
          await element.play().catch(() => undefined) // autoplay is allowed for a muted preview
        }
        setState('ready')
      } catch {
        if (cancelled) return
        setState('error')
        onErrorRef.current()
      }
    }
    void start()
    return () => {
      cancelled = true
      stream?.getTracks().forEach((track) => track.stop())
      if (video.current) video.current.srcObject = null
    }
  }, [])

  return { video, state }
}

/** The current preview frame as a JPEG (the worker then orients, shrinks and re-encodes it). */
async function grabFrame(video: HTMLVideoElement): Promise<Blob> {
  const canvas = document.createElement('canvas')
  canvas.width = video.videoWidth
  canvas.height = video.videoHeight
  const context = canvas.getContext('2d')
  if (!context || !canvas.width) throw new Error('The camera has no picture yet.')
  context.drawImage(video, 0, 0)
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The photo could not be taken.'))), 'image/jpeg', 0.92),
  )
}

export function CameraPanel({
  count,
  max,
  limitMessage,
  onPhotos,
  onCameraError,
}: {
  count: number
  max: number
  limitMessage: string
  onPhotos(photos: { blob: Blob; name: string }[]): void
  onCameraError(): void
}) {
  const { video, state } = useCamera(onCameraError)
  const fileInput = useRef<HTMLInputElement>(null)
  const limitId = useId()
  const atLimit = count >= max

  const capture = async () => {
    if (!video.current) return
    try {
      const blob = await grabFrame(video.current)
      onPhotos([{ blob, name: 'Camera photo' }])
    } catch {
      onCameraError()
    }
  }

  return (
    <div className="space-y-4">
      <div className="relative aspect-video overflow-hidden rounded-md bg-black">
        <video
          ref={video}
          muted
          playsInline
          aria-label="Camera preview"
          className="size-full object-contain"
        />
        {state === 'starting' && (
          <p role="status" className="absolute inset-0 flex items-center justify-center text-sm text-white">
            Starting the camera…
          </p>
        )}
      </div>
      {state === 'error' && <Alert>{CAMERA_ERROR}</Alert>}
      {atLimit && (
        <p id={limitId} role="status" className="text-sm font-medium text-destructive">
          {limitMessage}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <Button
          type="button"
          onClick={() => void capture()}
          disabled={atLimit || state !== 'ready'}
          aria-describedby={atLimit ? limitId : undefined}
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M4 8h3l2-3h6l2 3h3v11H4z" />
            <circle cx="12" cy="13" r="3.5" />
          </svg>
          Take photo
        </Button>
        <Button type="button" variant="outline" disabled={atLimit} onClick={() => fileInput.current?.click()}>
          Choose photos
        </Button>
        <input
          ref={fileInput}
          type="file"
          accept="image/*"
          multiple
          hidden
          aria-label="Choose photos"
          onChange={(event) => {
            const files = Array.from(event.currentTarget.files ?? [])
            event.currentTarget.value = '' // choosing the same file again still fires
            if (files.length) onPhotos(files.map((file) => ({ blob: file, name: file.name })))
          }}
        />
        <span className="text-sm text-muted-foreground" aria-live="polite">
          {count} of {max} photos
        </span>
      </div>
    </div>
  )
}
