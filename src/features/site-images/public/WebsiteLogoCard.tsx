import { useId, useState, type ReactNode } from 'react';
import { Notice } from '../../../ui/Notice.tsx';
import type { Outcome } from '../../accounts/public/use-settings-form.ts';
import { HEADER_ACTIONS, MENU_TOGGLE } from '../header-actions.ts';
import { LOGO_SCALE_TOP, logoHeight } from './logo.ts';
import { SiteImageCardFrame } from './SiteImageCardFrame.tsx';
import { SiteImageUpload } from './SiteImageUpload.tsx';
import { SITE_IMAGE_LIMITS, SITE_IMAGE_MESSAGES, SITE_IMAGE_SIZES, type SiteLogos } from './site-images.ts';
import { useLogosChanged, useSaveLogoSettings, useSiteLogos } from '../site-logos-query.ts';
import '../site-logos.css';

/** The logo cards' frame: their shared settings query and its load states. */
export function LogoCardFrame(props: {
  id: string;
  title: string;
  intro: ReactNode;
  children: (settings: SiteLogos) => ReactNode;
}) {
  return <SiteImageCardFrame {...props} query={useSiteLogos()} />;
}

/** The website logo: upload, delete, and its size with a live preview at the public sizes. */
export function WebsiteLogoCard() {
  return (
    <LogoCardFrame
      id="website-logo-title"
      title="Website logo"
      intro="Shown in the header of every public page instead of the agent's name. Pages open in this browser show a change at once; everyone else sees it when the site is next built."
    >
      {(settings) => <WebsiteLogo settings={settings} />}
    </LogoCardFrame>
  );
}

function WebsiteLogo({ settings }: { settings: SiteLogos }) {
  // The card's one notice (minor 26), for the upload and the size alike; kept here: the slider below
  // starts again (a new key) from each saved scale, the notice stays.
  const [outcome, setOutcome] = useState<Outcome>(null);
  const changed = useLogosChanged();
  return (
    <div className="admin-settings-form">
      <SiteImageUpload
        path="/api/upload/website-logo"
        noun="logo"
        current={settings.website_logo}
        accept="image/png,image/jpeg,image/svg+xml,image/webp"
        maxBytes={SITE_IMAGE_LIMITS.logoBytes}
        tooLargeMessage={SITE_IMAGE_MESSAGES.logoTooLarge}
        stored={SITE_IMAGE_SIZES.websiteLogo}
        hint="PNG, JPG, SVG or WebP; 2MB recommended, 10MB at most. A transparent PNG or an SVG looks best."
        messages={{
          uploadFailed: SITE_IMAGE_MESSAGES.logoUploadFailed,
          deleteFailed: SITE_IMAGE_MESSAGES.logoDeleteFailed,
        }}
        preview={() => null}
        onChanged={changed}
        onOutcome={setOutcome}
      />
      {settings.website_logo ? (
        // Keyed by the saved scale: a save (or a new logo) starts the slider from what was saved.
        <LogoScale
          key={settings.website_logo_scale}
          logo={settings.website_logo}
          saved={settings.website_logo_scale}
          onOutcome={setOutcome}
        />
      ) : null}
      <Notice tone={outcome?.tone ?? 'success'} message={outcome?.message ?? null} />
    </div>
  );
}

function LogoScale({ logo, saved, onOutcome }: { logo: string; saved: number; onOutcome: (outcome: Outcome) => void }) {
  const id = useId();
  // A scale saved above what renders (the API takes up to 2.0) starts the slider at its top.
  const [scale, setScale] = useState(Math.min(saved, LOGO_SCALE_TOP));
  const save = useSaveLogoSettings(SITE_IMAGE_MESSAGES.websiteSaveFailed, onOutcome);
  const height = logoHeight(scale);
  return (
    <form
      className="logo-scale"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onOutcome(null);
        save.mutate({ website_logo_scale: scale });
      }}
    >
      <div className="field">
        <label htmlFor={`${id}-scale`}>Logo size</label>
        <input
          id={`${id}-scale`}
          type="range"
          name="website_logo_scale"
          min={SITE_IMAGE_LIMITS.scaleMin}
          max={LOGO_SCALE_TOP}
          step={SITE_IMAGE_LIMITS.scaleStep}
          value={scale}
          aria-describedby={`${id}-size`}
          aria-valuetext={`${scale.toFixed(1)} times, ${height} pixels high`}
          onChange={(event) => {
            setScale(Number(event.target.value));
            onOutcome(null);
          }}
        />
        <output id={`${id}-size`} htmlFor={`${id}-scale`} className="field-hint">
          {scale.toFixed(1)}× — {height} px high on the site (80 px × size, between 40 and 120 px)
        </output>
      </div>
      <p className="logo-preview-label">Preview: the header on a computer</p>
      <LogoPreview logo={logo} height={height} label="computer" />
      <p className="logo-preview-label">On a phone (390 px wide)</p>
      <LogoPreview logo={logo} height={height} label="phone" phone />
      <div>
        <button type="submit" className="button button-primary" disabled={save.isPending || scale === saved}>
          {save.isPending ? 'Saving…' : 'Save logo size'}
        </button>
      </div>
    </form>
  );
}

/** The public header's logo (the same classes and height), in a frame of the device's width. */
function LogoPreview({ logo, height, label, phone }: { logo: string; height: number; label: string; phone?: boolean }) {
  return (
    <div className={phone ? 'logo-preview logo-preview-phone' : 'logo-preview'} data-testid={`logo-preview-${label}`}>
      <span className="site-name">
        <img className="site-logo" src={logo} alt={`The logo as the header shows it on a ${label}`} height={height} />
      </span>
      {/* The header's own buttons (header-actions.ts), not clickable here. */}
      <span className="nav-actions" aria-hidden="true">
        {phone ? (
          <span className={MENU_TOGGLE.className}>{MENU_TOGGLE.label}</span>
        ) : (
          HEADER_ACTIONS.map((action) => (
            <span key={action.label} className={action.className}>
              {action.label}
            </span>
          ))
        )}
      </span>
    </div>
  );
}
