/**
 * The home page's showcase card: advances every 6 s (wrapping) when there is more than one image,
 * dots choose an image, and each image's slow pan is marked complete 5 s after it appears
 * (`data-pan-complete`). The card's figures are refreshed from the live showcase settings.
 */
import { formatPrice } from '../../ui/money.ts';
import { bathsText, bedsText, sqftText } from '../../ui/home-facts.ts';
import { CAROUSEL_INTERVAL_MS, nextSlide, PAN_COMPLETE_MS, showcaseImages } from './showcase.ts';

function startCarousel(root: HTMLElement): void {
  let slides = [...root.querySelectorAll<HTMLElement>('[data-slide]')];
  let dots = [...root.querySelectorAll<HTMLButtonElement>('[data-dot]')];
  let current = 0;
  let panTimer: number | undefined;
  let advanceTimer: number | undefined;

  const show = (index: number) => {
    current = index;
    slides.forEach((slide, position) => {
      slide.classList.toggle('is-active', position === index);
      slide.removeAttribute('data-pan-complete');
    });
    dots.forEach((dot, position) => dot.setAttribute('aria-current', String(position === index)));
    root.dataset.current = String(index);
    window.clearTimeout(panTimer);
    panTimer = window.setTimeout(() => slides[index]?.setAttribute('data-pan-complete', ''), PAN_COMPLETE_MS);
  };

  const schedule = () => {
    window.clearInterval(advanceTimer);
    if (slides.length > 1)
      advanceTimer = window.setInterval(() => show(nextSlide(current, slides.length)), CAROUSEL_INTERVAL_MS);
  };

  root.addEventListener('click', (event) => {
    const dot = event.target instanceof Element ? event.target.closest<HTMLButtonElement>('[data-dot]') : null;
    if (!dot) return;
    show(Number(dot.dataset.dot));
    schedule();
  });

  const rebuild = (images: string[]) => {
    const track = root.querySelector<HTMLElement>('[data-slides]');
    const dotList = root.querySelector<HTMLElement>('[data-dots]');
    if (!track || !dotList) return;
    // No photos left: the plain placeholder the page is built with when there are none.
    const placeholder = document.createElement('div');
    placeholder.className = 'carousel-slide carousel-placeholder';
    placeholder.dataset.slide = '';
    placeholder.setAttribute('aria-hidden', 'true');
    track.replaceChildren(
      ...(images.length === 0 ? [placeholder] : []),
      ...images.map((source, index) => {
        const image = document.createElement('img');
        image.src = source;
        image.alt = `Showcase home, photo ${index + 1} of ${images.length}`;
        image.dataset.slide = '';
        image.className = 'carousel-slide';
        image.width = 640;
        image.height = 400;
        return image;
      }),
    );
    dotList.replaceChildren(
      ...(images.length > 1 ? images : []).map((_, index) => {
        const dot = document.createElement('button');
        dot.type = 'button';
        dot.className = 'carousel-dot';
        dot.dataset.dot = String(index);
        dot.setAttribute('aria-label', `Show photo ${index + 1}`);
        return dot;
      }),
    );
    slides = [...root.querySelectorAll<HTMLElement>('[data-slide]')];
    dots = [...root.querySelectorAll<HTMLButtonElement>('[data-dot]')];
    show(0);
    schedule();
  };

  show(0);
  schedule();
  void refresh(root, rebuild);
}

async function refresh(root: HTMLElement, rebuild: (images: string[]) => void): Promise<void> {
  try {
    const response = await fetch('/api/showcase/settings', { headers: { Accept: 'application/json' } });
    if (!response.ok) return;
    const body: unknown = await response.json();
    if (typeof body !== 'object' || body === null || !('settings' in body)) return;
    const { settings } = body;
    if (typeof settings !== 'object' || settings === null) return;
    const text = (key: string, value: string) => {
      const element = root.querySelector(`[data-showcase="${key}"]`);
      if (element && element.textContent !== value) element.textContent = value;
    };
    if ('showcase_property_price' in settings && typeof settings.showcase_property_price === 'number') {
      text('price', formatPrice(settings.showcase_property_price));
    }
    if ('showcase_property_address' in settings && typeof settings.showcase_property_address === 'string') {
      text('address', settings.showcase_property_address);
    }
    const facts = { beds: bedsText, baths: bathsText, sqft: sqftText } as const;
    for (const [key, describe] of Object.entries(facts)) {
      const value: unknown = Reflect.get(settings, `showcase_property_${key}`);
      if (typeof value === 'number') text(key, describe(value));
    }
    if ('showcase_images' in settings && typeof settings.showcase_images === 'string') {
      const images = showcaseImages(settings.showcase_images);
      if (images.join(',') !== (root.dataset.images ?? '')) {
        root.dataset.images = images.join(',');
        rebuild(images);
      }
    }
  } catch {
    // The card keeps the figures it was built with (the spec's silent fallback).
  }
}

for (const root of document.querySelectorAll<HTMLElement>('[data-carousel]')) startCarousel(root);
