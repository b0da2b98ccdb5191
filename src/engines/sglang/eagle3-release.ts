// Which SGLang releases read which EAGLE-3 draft key layout (docs/engines/facts.md): the first release with the
// multi-layer loader of upstream PR #24663. The catalogues agree: 0.5.10 still raises "EAGLE3 currently only
// supports 1 layer", 0.5.13 no longer does.
import { compareVersions } from '../../flags/schema/versions.ts';

/** The first release whose loader reads `layers.{i}.*` natively (and renames `midlayer.*` onto `layers.0`). */
export const SGLANG_LAYERS_SINCE = '0.5.12';

/** Whether a release reads `layers.0.*` natively; null when the release is unknown. */
export const readsLayersNatively = (version: string | null | undefined): boolean | null =>
  version === null || version === undefined
    ? null
    : version === 'main' || compareVersions(version, SGLANG_LAYERS_SINCE) >= 0;

/** The sentence that says which releases read which layout. */
export const EAGLE3_LAYOUT_BY_RELEASE = `SGLang ${SGLANG_LAYERS_SINCE} and later load \`layers.0.*\` natively and rename legacy \`midlayer.*\` onto it; older releases read only \`midlayer.*\` (and skip other names silently)`;
