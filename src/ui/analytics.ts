/** Calls to action, as the specification names them, pushed to Google Tag Manager's dataLayer. */
export type AnalyticsEvent =
  | {
      event: 'cta_net_to_seller';
      source_page: string;
      location: 'header_nav' | 'mobile_nav' | 'footer_section' | 'hero';
    }
  | {
      event: 'cta_schedule_consultation';
      source_page: string;
      location: 'header_nav' | 'mobile_nav' | 'footer_section' | 'hero';
    }
  | { event: 'estimate_calculated'; source_page: string }
  | { event: 'estimate_link_copied'; source_page: string }
  | { event: 'lead_submitted'; source_page: string; source: string };

declare global {
  interface Window {
    dataLayer?: Record<string, unknown>[];
  }
}

export function track(event: AnalyticsEvent): void {
  window.dataLayer ??= [];
  window.dataLayer.push({ ...event });
}

export const sourcePage = (): string => window.location.pathname;
