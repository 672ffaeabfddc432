import createCache, { type EmotionCache } from '@emotion/cache';

/**
 * The page's Content-Security-Policy admits only <style> elements that carry the nonce the gateway put in this
 * page (in the csp-nonce meta tag, as Vite's build writes it), so the style elements Chakra UI (emotion) writes
 * at run time are given it. Browsers hide a nonce attribute's value once the page is parsed; the element's
 * `nonce` property keeps it.
 */
export function pageStyleNonce(doc: Document = document): string | undefined {
  const meta = doc.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]');
  return meta?.nonce || meta?.getAttribute('nonce') || undefined;
}

export const createStyleCache = (doc: Document = document): EmotionCache => createCache({ key: 'css', nonce: pageStyleNonce(doc) });
