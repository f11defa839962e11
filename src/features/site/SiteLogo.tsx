import { useEffect, useState } from 'react';
import { z } from 'zod';
import { callApi } from '../../ui/api-client.ts';
import { logoHeight, logoSource } from './logo.ts';

const globalSettingsSchema = z.object({
  success: z.literal(true),
  settings: z.object({
    website_logo: z.string().nullable(),
    website_logo_scale: z.number(),
    website_logo_type: z.string(),
  }),
});

/** The site's logo from the global settings, or the text name while there is none. */
export default function SiteLogo({ siteName }: { siteName: string }) {
  const [logo, setLogo] = useState<{ src: string; height: number } | null>(null);

  useEffect(() => {
    callApi('/api/global/settings', globalSettingsSchema)
      .then((result) => {
        if (!result.ok || !result.data.settings.website_logo) return;
        const { website_logo, website_logo_type, website_logo_scale } = result.data.settings;
        setLogo({ src: logoSource(website_logo, website_logo_type), height: logoHeight(website_logo_scale) });
      })
      .catch((error: unknown) => console.warn('Could not load the site logo', error));
  }, []);

  return (
    <a href="/" className="site-name">
      {logo ? <img className="site-logo" src={logo.src} alt={siteName} style={{ height: logo.height }} /> : siteName}
    </a>
  );
}
