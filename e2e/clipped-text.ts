import type { Page } from '@playwright/test';

/** A piece of text a person cannot read in full where it is shown. */
export interface ClippedText {
  readonly text: string;
  readonly why: string;
}

/**
 * Text cut off on screen: an element whose own text overflows a box that hides
 * the overflow (or ellipsizes it), text that runs past the window's right edge
 * outside a scrolling area, and chart labels that leave their SVG. Scrolling
 * areas (the preview table) are not clipping: their text is reached by scrolling.
 */
export function clippedText(page: Page): Promise<ClippedText[]> {
  return page.evaluate(() => {
    const found: { text: string; why: string }[] = [];
    const viewportWidth = document.documentElement.clientWidth;
    const ownText = (el: Element): string =>
      Array.from(el.childNodes)
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent ?? '')
        .join('')
        .trim();
    const visible = (el: Element): boolean => {
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && !el.closest('.visually-hidden, [aria-hidden="true"]');
    };
    const insideScroller = (el: Element): boolean => {
      for (let p = el.parentElement; p; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o === 'auto' || o === 'scroll') return true;
      }
      return false;
    };
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      if (el instanceof SVGElement) continue;
      const text = ownText(el);
      if (!text || !visible(el)) continue;
      const style = getComputedStyle(el);
      const hides = style.overflowX === 'hidden' || style.overflowX === 'clip' || style.textOverflow === 'ellipsis';
      if (hides && el.scrollWidth > el.clientWidth + 1) found.push({ text: text.slice(0, 80), why: `cut at ${el.clientWidth}px of ${el.scrollWidth}px` });
      const right = el.getBoundingClientRect().right;
      if (right > viewportWidth + 1 && !insideScroller(el)) found.push({ text: text.slice(0, 80), why: `runs ${Math.round(right - viewportWidth)}px past the window` });
    }
    for (const label of Array.from(document.querySelectorAll('svg text'))) {
      const svg = label.closest('svg')!;
      if (!visible(svg) || getComputedStyle(svg).overflow === 'visible') continue;
      const box = svg.getBoundingClientRect();
      const r = label.getBoundingClientRect();
      if (r.width === 0) continue;
      if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1) found.push({ text: (label.textContent ?? '').slice(0, 80), why: 'chart label leaves its chart' });
    }
    return found;
  });
}
