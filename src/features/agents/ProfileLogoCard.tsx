import { useMutation } from '@tanstack/react-query';
import { UploadField } from '../images/public/UploadField.tsx';
import { sendJson } from '../accounts/public/account-query.ts';
import { LOGO_SIZE, MAX_UPLOAD_BYTES, PROFILE_MESSAGES, profileAnswerSchema } from './profile.ts';
import type { ProfileCardProps } from './ProfilePhotoCard.tsx';
import { uploadFailure } from './upload-failure.ts';

const LOGO_TYPES = 'image/png,image/jpeg,image/svg+xml,image/webp';

/** The business logo: its preview, a new one, its deletion. */
export function ProfileLogoCard({
  profile,
  showLogo,
  onSaved: saved,
  onFailure,
  onDeleted,
}: ProfileCardProps & {
  /** The form's "Show my business logo" as it is now, sent with a new logo. */
  showLogo: boolean;
  /** The logo is gone: the form no longer shows it. */
  onDeleted: () => void;
}) {
  const uploadLogo = useMutation({
    mutationFn: (imageData: string) =>
      sendJson('POST', '/api/upload/logo', profileAnswerSchema, { imageData, showLogo: showLogo }),
    onSuccess: (data) => saved(data, PROFILE_MESSAGES.logoSaved),
    onError: (error) => onFailure(uploadFailure(error, PROFILE_MESSAGES.logoFailed)),
  });
  const deleteLogo = useMutation({
    mutationFn: () => sendJson('DELETE', '/api/upload/logo', profileAnswerSchema),
    onSuccess: (data) => {
      onDeleted();
      saved(data, PROFILE_MESSAGES.logoDeleted);
    },
    onError: () => onFailure(PROFILE_MESSAGES.logoDeleteFailed),
  });

  return (
    <section className="account-card profile-image" aria-labelledby="logo-heading">
      <h2 id="logo-heading">Business logo</h2>
      {profile.logo ? (
        <img className="profile-logo-preview" src={profile.logo} alt="Your business logo" height="64" />
      ) : (
        <p className="field-hint">No logo yet.</p>
      )}
      <UploadField
        label={profile.logo ? 'Upload a new logo' : 'Upload a logo'}
        accept={LOGO_TYPES}
        maxBytes={MAX_UPLOAD_BYTES}
        tooLargeMessage={PROFILE_MESSAGES.logoTooLarge}
        stored={LOGO_SIZE}
        hint="PNG, JPG, SVG or WebP; 2MB recommended, 10MB at most."
        disabled={uploadLogo.isPending}
        onFile={(dataUrl) => uploadLogo.mutate(dataUrl)}
        onError={(message) => onFailure(message)}
      />
      {profile.logo ? (
        <div>
          <button
            type="button"
            className="button button-secondary"
            disabled={deleteLogo.isPending}
            onClick={() => deleteLogo.mutate()}
          >
            Delete logo
          </button>
        </div>
      ) : null}
    </section>
  );
}
