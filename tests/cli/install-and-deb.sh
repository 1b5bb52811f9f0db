#!/usr/bin/env bash
# `cmake --install` puts the binary, the man page and the three completions in the standard
# places of a prefix, and the installed binary runs; CPack builds a .deb whose dependencies
# name the Debian 12 runtime libraries, and whose extracted binary runs.
. "$(dirname "$0")/common.sh"
: "${KEPOCH_BUILD_DIR:?set by ctest}"

cmake --install "$KEPOCH_BUILD_DIR" --prefix "$SCRATCH/prefix" >"$SCRATCH/install.log" ||
  { cat "$SCRATCH/install.log"; fail "cmake --install failed"; }
for f in bin/kepoch share/man/man1/kepoch.1 share/bash-completion/completions/kepoch \
  share/zsh/vendor-completions/_kepoch share/fish/vendor_completions.d/kepoch.fish; do
  [[ -f $SCRATCH/prefix/$f ]] || fail "not installed: $f"
done
expect_exit 0 "$SCRATCH/prefix/bin/kepoch" --version
expect_in "$SCRATCH/out" "kepoch "

# The .deb's Depends come from dpkg-shlibdeps: without it there is nothing to check, which is a
# failure (./dev installs dpkg-dev), not a pass.
command -v dpkg-shlibdeps >/dev/null || fail "dpkg-shlibdeps (dpkg-dev) is not installed: the .deb cannot be checked"
(cd "$SCRATCH" && cpack -G DEB --config "$KEPOCH_BUILD_DIR/CPackConfig.cmake" -B "$SCRATCH/deb" \
  >"$SCRATCH/cpack.log" 2>&1) || { cat "$SCRATCH/cpack.log"; fail "cpack failed"; }
deb=$(ls "$SCRATCH"/deb/kepoch_*.deb)
dpkg-deb -I "$deb" >"$SCRATCH/info"
expect_in "$SCRATCH/info" "Package: kepoch"
depends=$(grep '^ Depends:' "$SCRATCH/info") || fail "the .deb has no Depends"
for lib in libfmt9 libyaml-cpp0.7 libstdc++6; do
  [[ $depends == *"$lib "* ]] || fail "Depends lacks $lib: $depends"
done
dpkg-deb -x "$deb" "$SCRATCH/extracted"
expect_exit 0 "$SCRATCH/extracted/usr/bin/kepoch" --version
[[ -f $SCRATCH/extracted/usr/share/man/man1/kepoch.1 ]] || fail "the .deb has no man page"
echo "ok: $(basename "$deb")"
