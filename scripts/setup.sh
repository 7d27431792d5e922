#!/usr/bin/env bash
# Installs what Crucible needs on a Debian/Ubuntu machine: bubblewrap (the sandbox),
# Python 3 (to judge Python), redis-server (for `crucible serve --queue` and its tests;
# the embedded default does not need it), chromium (the HTML report's tests open it in a
# real browser), and the npm packages. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup: please install ${missing[*]} with your package manager, then run this again" >&2
    exit 1
  fi
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

npm ci --no-audit --no-fund
