#!/usr/bin/env bash
# Makes sure the system packages the tests need are present: a Chromium for the
# end-to-end tests and the ONNX conformance data. Installs them with apt-get when
# they are missing and this user may (root or passwordless sudo); otherwise says
# what is missing. HEAPSCOPE_CHROMIUM points at another browser binary.
set -euo pipefail

need=()
if [ -n "${HEAPSCOPE_CHROMIUM:-}" ]; then
  [ -x "$HEAPSCOPE_CHROMIUM" ] || { echo "HEAPSCOPE_CHROMIUM=$HEAPSCOPE_CHROMIUM is not an executable" >&2; exit 1; }
elif [ ! -x /usr/bin/chromium ]; then
  need+=(chromium)
fi
[ -d /usr/share/libonnx-testdata/data/node ] || need+=(libonnx-testdata)
[ ${#need[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "missing: ${need[*]} (no apt-get here). Set HEAPSCOPE_CHROMIUM to a Chromium binary;" >&2
  echo "the conformance tests skip without libonnx-testdata." >&2
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"; else
    echo "missing: ${need[*]}. Install them with: sudo apt-get install -y ${need[*]}" >&2
    exit 0
  fi
fi
echo "installing ${need[*]} with apt-get"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
