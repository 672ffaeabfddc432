#!/usr/bin/env bash
# The separation network's training-only sources (never needed by the studio, its tests or its benchmarks):
# the wide training family's soundfonts and speech synthesizer, and the second training family's patches
# (freepats, played by timidity), drum kits (avldrums) and speakers (festival's voices); Debian packages.
# Called by `npm run train:separation`; idempotent.
set -euo pipefail
need_apt=()
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
[ -f /usr/share/sounds/sf2/sf_GMbank.sf2 ] || need_apt+=(csound-soundfont)
[ -f /usr/share/sounds/sf2/OPL-3_FM_128M.sf2 ] || need_apt+=(opl3-soundfont)
command -v flite >/dev/null 2>&1 || need_apt+=(flite)
for pkg in timidity freepats avldrums.lv2-soundfont festival festvox-kdlpc16k festvox-kallpc16k festvox-itapc16k \
  festvox-italp16k festvox-suopuhe-lj festvox-suopuhe-mv festvox-ru festvox-czech-dita festvox-us-slt-hts; do
  installed "$pkg" || need_apt+=("$pkg")
done
[ ${#need_apt[@]} -eq 0 ] || bash "$(dirname "${BASH_SOURCE[0]}")/apt-install.sh" provision-training "${need_apt[@]}"
