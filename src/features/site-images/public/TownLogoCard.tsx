import { useState } from 'react';
import { CheckboxField } from '../../../ui/CheckboxField.tsx';
import { Notice } from '../../../ui/Notice.tsx';
import type { Outcome } from '../../accounts/public/use-settings-form.ts';
import { SiteImageUpload } from './SiteImageUpload.tsx';
import { SITE_IMAGE_LIMITS, SITE_IMAGE_MESSAGES, SITE_IMAGE_SIZES, type SiteLogos } from './site-images.ts';
import { useLogosChanged, useSaveLogoSettings } from '../site-logos-query.ts';
import { LogoCardFrame } from './WebsiteLogoCard.tsx';

/** The town-page logo: upload, delete, and whether the town pages show it. */
export function TownLogoCard() {
  return (
    <LogoCardFrame
      id="town-logo-title"
      title="Town page logo"
      intro="Shown at the top of every town and county page while it is switched on. Those pages pick up a change when the site is next built."
    >
      {(settings) => <TownLogo settings={settings} />}
    </LogoCardFrame>
  );
}

function TownLogo({ settings }: { settings: SiteLogos }) {
  // The card's one notice (minor 26), for the upload and the switch alike.
  const [outcome, setOutcome] = useState<Outcome>(null);
  const changed = useLogosChanged();
  const save = useSaveLogoSettings(SITE_IMAGE_MESSAGES.townLogoSaveFailed, setOutcome);
  // The box shows the seller's click at once, until the save settles: the mutation's own pending
  // state arrives a render later, and a controlled box would flick back in between.
  const [asked, setAsked] = useState<boolean | null>(null);
  const shown = asked ?? settings.show_town_page_logo;
  return (
    <div className="admin-settings-form">
      <SiteImageUpload
        path="/api/upload/town-logo"
        noun="town page logo"
        current={settings.town_page_logo}
        accept="image/png,image/jpeg,image/svg+xml,image/webp"
        maxBytes={SITE_IMAGE_LIMITS.logoBytes}
        tooLargeMessage={SITE_IMAGE_MESSAGES.logoTooLarge}
        stored={SITE_IMAGE_SIZES.townLogo}
        hint={`PNG, JPG, SVG or WebP, at most 10MB. It is stored at most ${SITE_IMAGE_LIMITS.townLogoHeight} px high and ${SITE_IMAGE_LIMITS.townLogoWidth} px wide: a larger image is scaled down to fit, keeping its proportions.`}
        messages={{
          uploadFailed: SITE_IMAGE_MESSAGES.townLogoUploadFailed,
          deleteFailed: SITE_IMAGE_MESSAGES.townLogoDeleteFailed,
        }}
        preview={(src) => (
          <div className="town-logo-preview">
            <img src={src} alt="The town page logo at the size town pages show it" />
          </div>
        )}
        onChanged={changed}
        onOutcome={setOutcome}
      />
      <CheckboxField
        name="show_town_page_logo"
        checked={shown}
        hint={settings.town_page_logo ? undefined : 'Upload a logo first; until then town pages show none.'}
        onChange={(checked) => {
          setOutcome(null);
          setAsked(checked);
          // On success the saved settings are already in place (the hook's onSuccess runs first).
          save.mutate({ show_town_page_logo: checked }, { onSettled: () => setAsked(null) });
        }}
      >
        Show the logo on town pages
      </CheckboxField>
      <Notice tone={outcome?.tone ?? 'success'} message={outcome?.message ?? null} />
    </div>
  );
}
