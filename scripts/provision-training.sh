#!/usr/bin/env bash
# The separation network's training-only sources (never needed by the studio, its tests or its benchmarks):
# the wide training family's soundfonts and speech synthesizer, the second training family's patches
# (freepats, played by timidity), drum kits (avldrums) and speakers (festival's voices), the third's
# synthesizer (csound) and sampled kits (hydrogen-drumkits), and the fourth's wavetable synthesizer (Sonivox EAS:
# libsonivox-dev, built into a small renderer with gcc), and the fifth's sample libraries (lmms-common, sonic-pi-samples);
# Debian packages.
# Called by `npm run train:separation`; idempotent.
set -euo pipefail
need_apt=()
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
for pkg in csound-soundfont opl3-soundfont flite timidity freepats avldrums.lv2-soundfont festival festvox-kdlpc16k \
  festvox-kallpc16k festvox-itapc16k festvox-italp16k festvox-suopuhe-lj festvox-suopuhe-mv festvox-ru festvox-czech-dita \
  festvox-us-slt-hts csound hydrogen-drumkits libsonivox-dev gcc lmms-common \
  sonic-pi-samples; do
  installed "$pkg" || need_apt+=("$pkg")
done
[ ${#need_apt[@]} -eq 0 ] || bash "$(dirname "${BASH_SOURCE[0]}")/apt-install.sh" provision-training "${need_apt[@]}"
