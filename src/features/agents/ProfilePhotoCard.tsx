import { useMutation } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { UploadField } from '../images/public/UploadField.tsx';
import { sendJson } from '../accounts/public/account-query.ts';
import { MAX_UPLOAD_BYTES, PROFILE_MESSAGES, profileAnswerSchema, PHOTO_TYPES, type Profile } from './profile.ts';
import { uploadFailure } from './upload-failure.ts';

// The crop tool (react-image-crop and its styles) loads once a photo is chosen.
const PhotoCrop = lazy(() => import('./PhotoCrop.tsx'));

/** What a card of the profile screen tells it: a new profile saved (and what to say), or a failure. */
export interface ProfileCardProps {
  profile: Profile;
  onSaved: (data: { profile: Profile }, message: string) => void;
  onFailure: (message: string) => void;
}

/** The profile photo: its preview, a new one cropped to a square, its deletion. */
export function ProfilePhotoCard({
  profile,
  showProfilePhoto,
  onSaved: saved,
  onFailure,
  onPicked,
  onDeleted,
}: ProfileCardProps & {
  /** The form's "Show my profile photo" as it is now, sent with a new photo. */
  showProfilePhoto: boolean;
  /** A photo was chosen: the screen's last failure no longer applies. */
  onPicked: () => void;
  /** The photo is gone: the form no longer shows it. */
  onDeleted: () => void;
}) {
  const [photoToCrop, setPhotoToCrop] = useState<string | null>(null);
  const uploadPhoto = useMutation({
    mutationFn: (imageData: string) =>
      sendJson('POST', '/api/upload/profile-photo', profileAnswerSchema, {
        imageData,
        showProfilePhoto,
      }),
    onSuccess: (data) => {
      setPhotoToCrop(null);
      saved(data, PROFILE_MESSAGES.photoSaved);
    },
    onError: (error) => onFailure(uploadFailure(error, PROFILE_MESSAGES.photoFailed)),
  });
  const deletePhoto = useMutation({
    mutationFn: () => sendJson('DELETE', '/api/upload/profile-photo', profileAnswerSchema),
    onSuccess: (data) => {
      onDeleted();
      saved(data, PROFILE_MESSAGES.photoDeleted);
    },
    onError: () => onFailure(PROFILE_MESSAGES.photoDeleteFailed),
  });

  return (
    <section className="account-card profile-image" aria-labelledby="photo-heading">
      <h2 id="photo-heading">Profile photo</h2>
      {profile.profile_photo ? (
        <img
          className="profile-photo-preview"
          src={profile.profile_photo}
          alt="Your profile photo"
          width="128"
          height="128"
        />
      ) : (
        <p className="field-hint">No photo yet.</p>
      )}
      {photoToCrop ? (
        <Suspense fallback={<p aria-live="polite">Loading the crop tool…</p>}>
          <PhotoCrop
            src={photoToCrop}
            saving={uploadPhoto.isPending}
            onSave={(jpeg) => uploadPhoto.mutate(jpeg)}
            onCancel={() => setPhotoToCrop(null)}
            onError={(message) => onFailure(message)}
          />
        </Suspense>
      ) : (
        <UploadField
          label={profile.profile_photo ? 'Choose a new photo' : 'Choose a photo'}
          accept={PHOTO_TYPES}
          maxBytes={MAX_UPLOAD_BYTES}
          tooLargeMessage={PROFILE_MESSAGES.photoTooLarge}
          // Handed over as picked: the crop tool scales and encodes the square it saves.
          stored={null}
          hint="JPG, PNG or WebP, at most 10MB. You can crop it to a square next."
          onFile={(dataUrl) => {
            onPicked();
            setPhotoToCrop(dataUrl);
          }}
          onError={(message) => onFailure(message)}
        />
      )}
      {profile.profile_photo && !photoToCrop ? (
        <div>
          <button
            type="button"
            className="button button-secondary"
            disabled={deletePhoto.isPending}
            onClick={() => deletePhoto.mutate()}
          >
            Delete photo
          </button>
        </div>
      ) : null}
    </section>
  );
}
