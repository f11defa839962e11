import { useEffect, useState } from 'react';
import { z } from 'zod';
import { callApi } from '../../ui/api-client.ts';

const globalSettingsSchema = z.object({
  success: z.literal(true),
  settings: z.object({
    website_logo: z.string().nullable(),
    website_logo_scale: z.number(),
    website_logo_type: z.string(),
  }),
});

/** Logo height on public pages: 32 px times the admin's scale, kept between 24 and 48. */
export const logoHeight = (scale: number): number => Math.min(48, Math.max(24, Math.round(32 * scale)));

const asImageSource = (logo: string, type: string): string =>
  logo.startsWith('data:') || logo.startsWith('/') ? logo : `data:image/${type};base64,${logo}`;

/** The site's logo from the global settings, or the text name while there is none. */
export default function SiteLogo({ siteName }: { siteName: string }) {
  const [logo, setLogo] = useState<{ src: string; height: number } | null>(null);

  useEffect(() => {
    callApi('/api/global/settings', globalSettingsSchema)
      .then((result) => {
        if (!result.ok || !result.data.settings.website_logo) return;
        const { website_logo, website_logo_type, website_logo_scale } = result.data.settings;
        setLogo({ src: asImageSource(website_logo, website_logo_type), height: logoHeight(website_logo_scale) });
      })
      .catch((error: unknown) => console.warn('Could not load the site logo', error));
  }, []);

  return (
    <a href="/" className="site-name">
      {logo ? <img className="site-logo" src={logo.src} alt={siteName} style={{ height: logo.height }} /> : siteName}
    </a>
  );
}
