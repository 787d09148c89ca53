#!/usr/bin/env bash
# System packages the real-editor run needs, from Debian: Chromium (the browser that drives VS Code),
# ripgrep (fills code-server's ripgrep download cache), libkrb5-dev and a C/C++ toolchain (code-server's
# native modules build from source because their prebuilt downloads are unreachable), unzip (the pack
# test lists and reads the built VSIX with it), pre-commit (the hooks, tried on a scratch repository) and
# Neovim (the second real editor test/language-server/neovim.test.ts drives over `paygate lsp --stdio`) and
# PostgreSQL's server binaries (the team ledger's tests start a throwaway cluster from them:
# test/fixtures/postgres/cluster.ts; the package's own cluster is not used).
# Idempotent and quiet: does nothing when everything is present. Needs root (or sudo) for apt-get.
set -euo pipefail

need=()
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || need+=(chromium)
command -v rg >/dev/null 2>&1 || need+=(ripgrep)
[ -e /usr/include/gssapi/gssapi.h ] || need+=(libkrb5-dev)
command -v g++ >/dev/null 2>&1 && command -v make >/dev/null 2>&1 || need+=(build-essential)
command -v python3 >/dev/null 2>&1 || need+=(python3)
command -v unzip >/dev/null 2>&1 || need+=(unzip)
command -v pre-commit >/dev/null 2>&1 || need+=(pre-commit)
command -v nvim >/dev/null 2>&1 || need+=(neovim)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || need+=(postgresql)
# Fonts so screenshots show text, not boxes.
[ -d /usr/share/fonts/truetype/dejavu ] || need+=(fonts-dejavu-core)

[ ${#need[@]} -eq 0 ] && exit 0

sudo=()
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo=(sudo); else
    echo "setup-system: need root to install: ${need[*]} (apt-get install ${need[*]})" >&2
    exit 1
  fi
fi

echo "setup-system: installing ${need[*]}"
# Another job on this machine may be running apt at the same time.
lock=(flock /tmp/paygate-apt.lock)
command -v flock >/dev/null 2>&1 || lock=()
log=$(mktemp)
if ! "${sudo[@]}" "${lock[@]}" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(printf '%q ' "${need[@]}")" >"$log" 2>&1; then
  tail -n 30 "$log" >&2
  rm -f "$log"
  echo "setup-system: apt-get install failed" >&2
  exit 1
fi
rm -f "$log"
