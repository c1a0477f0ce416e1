#!/usr/bin/env bats
# scripts/deps.sh installs what it can, names what it could not, and stops
# the build only for a build dependency.  apt-get, dpkg-query, id and sudo
# are fakes on PATH: the installed set is a file, apt-get cannot install
# the packages listed in $UNAVAILABLE.

load helpers

setup() {
    bin="$BATS_TEST_TMPDIR/bin"
    mkdir -p "$bin"
    export INSTALLED="$BATS_TEST_TMPDIR/installed" UNAVAILABLE="" FAKE_UID=0 SUDO_OK=0
    cat >"$bin/dpkg-query" <<'SH'
#!/bin/sh
# dpkg-query -W -f='${Status}' PKG
for p; do :; done
grep -qx "$p" "$INSTALLED" && printf 'install ok installed'
exit 0
SH
    cat >"$bin/apt-get" <<'SH'
#!/bin/sh
[ "$1" = update ] && exit 0
rc=0
for p; do
    case "$p" in -*|install) continue ;; esac
    if echo " $UNAVAILABLE " | grep -q " $p "; then echo "E: Unable to locate package $p" >&2; rc=100
    else echo "$p" >>"$INSTALLED.new"; fi
done
# apt-get installs all or nothing
[ "$rc" = 0 ] && [ -f "$INSTALLED.new" ] && cat "$INSTALLED.new" >>"$INSTALLED"
rm -f "$INSTALLED.new"
exit $rc
SH
    printf '#!/bin/sh\n[ "$1" = -u ] && echo "$FAKE_UID" || echo "uid=$FAKE_UID"\n' >"$bin/id"
    printf '#!/bin/sh\n[ "$SUDO_OK" = 1 ] || exit 1\nshift\n[ "$1" = true ] && exit 0\nexec "$@"\n' >"$bin/sudo"
    chmod +x "$bin"/*
    export PATH="$bin:$PATH"
    : >"$INSTALLED"
}

# every package deps.sh wants in MODE, as the fake apt-get recorded them
install_all() { # mode
    "$REPO/scripts/deps.sh" "$1" >/dev/null 2>&1
}

@test "deps: everything installed: silent, exit 0" {
    install_all test
    run "$REPO/scripts/deps.sh" test
    [ "$status" -eq 0 ]
    [ -z "$output" ]
}

@test "deps: chromium cannot be installed: the rest is, chromium is named, exit 0" {
    UNAVAILABLE="chromium" run "$REPO/scripts/deps.sh" test
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"apt-get could not install chromium"* ]]
    [[ "$output" == *"not installed (optional): chromium;"* ]]
    grep -qx hyperfine "$INSTALLED"
    grep -qx libcmocka-dev "$INSTALLED"
    refute grep -qx chromium "$INSTALLED"
}

@test "deps: a build dependency that cannot be installed is an error naming it" {
    UNAVAILABLE="libjansson-dev" run "$REPO/scripts/deps.sh" run
    [ "$status" -eq 1 ]
    [[ "$output" == *"not installed (needed to build): libjansson-dev"* ]]
}

@test "deps: not root and no password-less sudo: nothing installed, the missing named, the build goes on" {
    install_all test
    grep -v -x -e chromium -e jq "$INSTALLED" >"$INSTALLED.tmp" && mv "$INSTALLED.tmp" "$INSTALLED"
    FAKE_UID=1000 run "$REPO/scripts/deps.sh" test
    [ "$status" -eq 0 ]
    [[ "$output" == *"not root and no password-less sudo: cannot install: jq chromium"* ]]
    [[ "$output" == *"not installed (optional): jq chromium"* ]]
    : >"$INSTALLED"
    FAKE_UID=1000 run "$REPO/scripts/deps.sh" test
    [ "$status" -eq 1 ]
    # with sudo that needs no password, it installs
    FAKE_UID=1000 SUDO_OK=1 run "$REPO/scripts/deps.sh" test
    [ "$status" -eq 0 ]
    grep -qx gcc "$INSTALLED"
}

@test "deps: a bad mode is usage, exit 2" {
    run "$REPO/scripts/deps.sh" nightly
    [ "$status" -eq 2 ]
}
