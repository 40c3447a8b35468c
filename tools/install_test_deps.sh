#!/usr/bin/env bash
# Installs the Debian tools some tests use (promtool from `prometheus`, `chromium`, `iptables` for
# the original-destination test in a network namespace) when they
# are missing and this machine can install them. Tests that need a tool skip, visibly, when it
# is absent; this script never fails the build.
set -u
need=()
command -v promtool >/dev/null 2>&1 || need+=(prometheus)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v iptables >/dev/null 2>&1 || need+=(iptables)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "note: cannot install ${need[*]} (not root or no apt-get); tests that need them will skip"
  exit 0
fi
echo "installing test tools: ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
timeout 600 apt-get update -qq >/dev/null 2>&1 || true
timeout 900 apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null 2>&1 ||
  echo "note: installing ${need[*]} failed; tests that need them will skip"
exit 0
