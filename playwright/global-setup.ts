// Writes the fake camera and microphone inputs Chromium plays (see playwright.config.ts):
// a Y4M video of a worksheet-like pattern and a WAV with a spoken-pitch tone. Written once
// and kept (fixtures/media is git-ignored), so the browsers always find them at launch.
import fs from 'node:fs'
import path from 'node:path'

const mediaDir = path.resolve(import.meta.dirname, 'fixtures/media')

/** 640x480 4:2:0 Y4M, two frames: light paper with dark "lines of writing". */
function writeCamera(file: string) {
  const width = 640
  const height = 480
  const header = `YUV4MPEG2 W${width} H${height} F30:1 Ip A1:1 C420jpeg\n`
  const frames: Buffer[] = [Buffer.from(header)]
  for (let frame = 0; frame < 2; frame++) {
    const y = Buffer.alloc(width * height)
    for (let row = 0; row < height; row++) {
      for (let col = 0; col < width; col++) {
        const line = row % 40 > 30 && col > 40 && col < 600 && ((col + frame * 7) >> 4) % 5 !== 0
        y[row * width + col] = line ? 40 : 225 - ((row + col) >> 5)
      }
    }
    const u = Buffer.alloc((width / 2) * (height / 2), 128)
    const v = Buffer.alloc((width / 2) * (height / 2), 132)
    frames.push(Buffer.from('FRAME\n'), y, u, v)
  }
  fs.writeFileSync(file, Buffer.concat(frames))
}

/** 4 s of 48 kHz mono 16-bit PCM: a 220 Hz tone whose loudness rises and falls like speech. */
function writeMicrophone(file: string) {
  const rate = 48_000
  const samples = rate * 4
  const data = Buffer.alloc(samples * 2)
  for (let i = 0; i < samples; i++) {
    const t = i / rate
    const envelope = 0.5 + 0.5 * Math.sin(2 * Math.PI * 2 * t)
    data.writeInt16LE(Math.round(12_000 * envelope * Math.sin(2 * Math.PI * 220 * t)), i * 2)
  }
  const header = Buffer.alloc(44)
  header.write('RIFF', 0)
  header.writeUInt32LE(36 + data.length, 4)
  header.write('WAVE', 8)
  header.write('fmt ', 12)
  header.writeUInt32LE(16, 16)
  header.writeUInt16LE(1, 20) // PCM
  header.writeUInt16LE(1, 22) // mono
  header.writeUInt32LE(rate, 24)
  header.writeUInt32LE(rate * 2, 28)
  header.writeUInt16LE(2, 32)
  header.writeUInt16LE(16, 34)
  header.write('data', 36)
  header.writeUInt32LE(data.length, 40)
  fs.writeFileSync(file, Buffer.concat([header, data]))
}

export default function globalSetup() {
  fs.mkdirSync(mediaDir, { recursive: true })
  const camera = path.join(mediaDir, 'fake-camera.y4m')
  const microphone = path.join(mediaDir, 'fake-microphone.wav')
  if (!fs.existsSync(camera)) writeCamera(camera)
  if (!fs.existsSync(microphone)) writeMicrophone(microphone)
}
