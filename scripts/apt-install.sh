#!/usr/bin/env bash
# Installs Debian packages for the provisioning scripts: `apt-install.sh <log tag> <package>...`.
# A second try follows a failed one (after finishing any half-configured package), so one interrupted download
# or a package manager busy for a moment does not fail a fresh machine's first `npm test`.
set -euo pipefail
tag="$1"; shift
printf '[%s] apt-get install %s\n' "$tag" "$*" >&2
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
install() {
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
if ! install "$@"; then
  printf '[%s] apt-get failed; trying once more\n' "$tag" >&2
  sleep 10
  DEBIAN_FRONTEND=noninteractive $SUDO dpkg --configure -a || true
  install "$@"
fi
