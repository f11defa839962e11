import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { getJson } from '../../accounts/public/account-query.ts';
import type { Outcome } from '../../accounts/public/use-settings-form.ts';
import { SiteImageCardFrame } from '../../site-images/public/SiteImageCardFrame.tsx';
import { SiteImageUpload } from '../../site-images/public/SiteImageUpload.tsx';
import { SITE_IMAGE_LIMITS, SITE_IMAGE_MESSAGES, SITE_IMAGE_SIZES } from '../../site-images/public/site-images.ts';
import { ogImageAnswerSchema } from '../seo-settings.ts';

const QUERY_KEY = ['og-image'];

/** The image link previews show for every page (og:image): upload, preview, delete. */
export function OgImageCard() {
  const [outcome, setOutcome] = useState<Outcome>(null);
  const image = useQuery({
    queryKey: QUERY_KEY,
    queryFn: async () => (await getJson('/api/seo/settings', ogImageAnswerSchema)).og_image,
  });
  return (
    <SiteImageCardFrame
      id="og-image-title"
      title="Social preview image"
      intro="The picture social networks and messengers show when a page of the site is shared (its OG image). Pages pick up a change when the site is next built."
      query={image}
    >
      {(current) => (
        <SiteImageUpload
          path="/api/upload/og-image"
          noun="OG image"
          current={current}
          accept="image/png,image/jpeg,image/webp"
          maxBytes={SITE_IMAGE_LIMITS.ogImageBytes}
          tooLargeMessage={SITE_IMAGE_MESSAGES.ogTooLarge}
          stored={SITE_IMAGE_SIZES.ogImage}
          hint="500x285 recommended; JPG, PNG or WebP, at most 5MB."
          messages={{
            uploadFailed: SITE_IMAGE_MESSAGES.ogUploadFailed,
            deleteFailed: SITE_IMAGE_MESSAGES.ogDeleteFailed,
          }}
          preview={(src) => <img className="og-image-preview" src={src} alt="The current OG image" />}
          onChanged={() => void image.refetch()}
          outcome={outcome}
          onOutcome={setOutcome}
        />
      )}
    </SiteImageCardFrame>
  );
}
