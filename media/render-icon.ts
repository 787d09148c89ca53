// Renders media/icon.svg to media/icon.png (128×128), the icon the VSIX and the Marketplace show.
// The PNG is a build output (git-ignored): `npm run package` runs this first, so the picture in the
// VSIX always matches the SVG that is reviewed in the repository.
// Usage: tsx media/render-icon.ts [OUT.png]
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Resvg } from '@resvg/resvg-js';

export const ICON_SIZE = 128;

/** The icon as PNG bytes, ICON_SIZE pixels square. No system fonts: the SVG has no text. */
export function renderIcon(svg: string): Buffer {
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'width', value: ICON_SIZE },
    font: { loadSystemFonts: false },
    background: 'rgba(0,0,0,0)',
  });
  const image = resvg.render();
  if (image.width !== ICON_SIZE || image.height !== ICON_SIZE)
    throw new Error(`icon rendered ${image.width}×${image.height}, expected ${ICON_SIZE}×${ICON_SIZE}`);
  return image.asPng();
}

if (require.main === module) {
  const here = __dirname;
  const out = resolve(process.argv[2] ?? join(here, 'icon.png'));
  writeFileSync(out, renderIcon(readFileSync(join(here, 'icon.svg'), 'utf8')));
  console.log(`[icon] ${out}`);
}
