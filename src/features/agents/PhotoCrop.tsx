import { useRef, useState } from 'react';
import ReactCrop, { centerCrop, convertToPixelCrop, makeAspectCrop, type Crop } from 'react-image-crop';
import 'react-image-crop/dist/ReactCrop.css';
import { NOT_AN_IMAGE, unreadableImageMessage } from '../images/public/UploadField.tsx';
import { dataUrlOf, encodeImage, ImageTooHeavy } from '../images/public/fit-image.ts';
import { PHOTO_SIZE, PHOTO_TYPES } from './profile.ts';

// The spec's keyboard nudging: arrow keys move the crop 1 px, with Shift 10, with Ctrl/Cmd 100.
ReactCrop.nudgeStep = 1;
ReactCrop.nudgeStepMedium = 10;
ReactCrop.nudgeStepLarge = 100;

/** The spec's crop output: a JPEG at 0.95 quality (lower only if that would not fit one upload). */
const JPEG_QUALITY = 0.95;

/**
 * The square part of `image` inside `crop`, at most as large as the server keeps a photo, as a JPEG
 * data URL light enough for one upload request (encodeImage, decision 0027).
 */
async function cropToJpeg(image: HTMLImageElement, crop: Crop): Promise<string> {
  const pixels = convertToPixelCrop(crop, image.width, image.height);
  const scaleX = image.naturalWidth / image.width;
  const scaleY = image.naturalHeight / image.height;
  const region = {
    x: pixels.x * scaleX,
    y: pixels.y * scaleY,
    width: Math.max(1, pixels.width * scaleX),
    height: Math.max(1, pixels.height * scaleY),
  };
  // Square: the crop's aspect is 1, but its sides in natural pixels may differ by rounding.
  const side = Math.max(1, Math.round(region.width));
  return dataUrlOf(await encodeImage(image, { ...region, width: side, height: side }, PHOTO_SIZE, JPEG_QUALITY));
}

/**
 * A square crop of a chosen photo (initially 90 % wide, centred), saved as a JPEG data URL at 0.95;
 * `onError` when the browser cannot encode it.
 */
export default function PhotoCrop({
  src,
  saving,
  onSave,
  onCancel,
  onError,
}: {
  src: string;
  saving: boolean;
  onSave: (jpegDataUrl: string) => void;
  onCancel: () => void;
  onError: (message: string) => void;
}) {
  const image = useRef<HTMLImageElement>(null);
  const [crop, setCrop] = useState<Crop>();
  const [encoding, setEncoding] = useState(false);
  const busy = saving || encoding;
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
          // The picker decodes the file first; should this browser still fail to show it, say so and
          // go back to the picker rather than leave a broken image and a disabled Save.
          onError={() => {
            onError(unreadableImageMessage(PHOTO_TYPES));
            onCancel();
          }}
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
          disabled={busy || !crop}
          onClick={() => {
            if (!image.current || !crop) return;
            setEncoding(true);
            cropToJpeg(image.current, crop)
              .then(onSave, (error: unknown) => onError(error instanceof ImageTooHeavy ? error.message : NOT_AN_IMAGE))
              .finally(() => setEncoding(false));
          }}
        >
          {busy ? 'Saving…' : 'Save photo'}
        </button>
        <button type="button" className="button button-secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </div>
  );
}
