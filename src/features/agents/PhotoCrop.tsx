import { useRef, useState } from 'react';
import ReactCrop, { centerCrop, convertToPixelCrop, makeAspectCrop, type Crop } from 'react-image-crop';
import 'react-image-crop/dist/ReactCrop.css';

// The spec's keyboard nudging: arrow keys move the crop 1 px, with Shift 10, with Ctrl/Cmd 100.
ReactCrop.nudgeStep = 1;
ReactCrop.nudgeStepMedium = 10;
ReactCrop.nudgeStepLarge = 100;

/** The spec's crop output: a JPEG at 0.95 quality; at most this many pixels a side (the server keeps 800). */
const JPEG_QUALITY = 0.95;
const MAX_SIDE = 1200;

/** The square part of `image` inside `crop`, as a JPEG data URL. */
function cropToJpeg(image: HTMLImageElement, crop: Crop): string {
  const pixels = convertToPixelCrop(crop, image.width, image.height);
  const scaleX = image.naturalWidth / image.width;
  const scaleY = image.naturalHeight / image.height;
  const side = Math.max(1, Math.min(MAX_SIDE, Math.round(pixels.width * scaleX)));
  const canvas = document.createElement('canvas');
  canvas.width = side;
  canvas.height = side;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('This browser cannot crop images');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, side, side);
  context.drawImage(
    image,
    pixels.x * scaleX,
    pixels.y * scaleY,
    pixels.width * scaleX,
    pixels.height * scaleY,
    0,
    0,
    side,
    side,
  );
  return canvas.toDataURL('image/jpeg', JPEG_QUALITY);
}

/** A square crop of a chosen photo (initially 90 % wide, centred), saved as a JPEG data URL at 0.95. */
export default function PhotoCrop({
  src,
  saving,
  onSave,
  onCancel,
}: {
  src: string;
  saving: boolean;
  onSave: (jpegDataUrl: string) => void;
  onCancel: () => void;
}) {
  const image = useRef<HTMLImageElement>(null);
  const [crop, setCrop] = useState<Crop>();
  return (
    <div className="photo-crop">
      <p className="field-hint">
        Drag the square to choose the part of the photo to show. With the square selected, the arrow keys move it
        (Shift: 10 px, Ctrl or Cmd: 100 px).
      </p>
      <ReactCrop crop={crop} onChange={(_, percent) => setCrop(percent)} aspect={1} keepSelection ruleOfThirds>
        <img
          ref={image}
          src={src}
          alt="The photo you chose, to crop"
          className="photo-crop-image"
          onLoad={(event) => {
            const { width, height } = event.currentTarget;
            // 90 % wide; a landscape photo's square is 90 % of its height, so that it fits.
            const start = width <= height ? { unit: '%' as const, width: 90 } : { unit: '%' as const, height: 90 };
            setCrop(centerCrop(makeAspectCrop(start, 1, width, height), width, height));
          }}
        />
      </ReactCrop>
      <div className="nav-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={saving || !crop}
          onClick={() => {
            if (image.current && crop) onSave(cropToJpeg(image.current, crop));
          }}
        >
          {saving ? 'Saving…' : 'Save photo'}
        </button>
        <button type="button" className="button button-secondary" onClick={onCancel} disabled={saving}>
          Cancel
        </button>
      </div>
    </div>
  );
}
