#!/usr/bin/env bats
# The FizzBuzz variants, end to end: each one built by gcc and clang with
# -Wall -Wextra -Werror (plus its requires_flags; built even where the CPU
# lacks its requires_cpu, which only running needs), then proven right by
# `flagbench check fizzbuzz` where such code breaks: the endings N = 1..31,
# and through the optional START argument the lines around every power of
# ten up to 19 digits, around 2^32 and up to the largest N.  The slow tier
# (make test-slow) runs -O2, -O3 and -Os of both compilers and whole streams
# up to 10^7 + 1.  Also: usage errors, write() where stdout is no pipe, a
# slow reader, and the checker's verdict on a damaged stream.

bats_require_minimum_version 1.5.0
load helpers

FAMILY_DIR="$REPO/variants/fizzbuzz"
FAMILY_JSON="$FAMILY_DIR/family.json"
CCS="gcc clang"
# builds run through the cases: the fast tier gcc -O2 or clang -O3, in turn (every
# variant still built by both compilers), the slow tier every compiler x opt
RUN_BUILDS="gcc-O2 clang-O3"

# N, or "N START".  The fast tier proves each boundary through START: the
# lines around every power of ten (10^k - 301 .. 10^k + 301, so the digit
# count changes inside the stream), around 2^32 and up to the largest N,
# with every ending mod 30 near the start (N = 1..31).  The slow tier adds
# whole streams from 1 up to 10^7 + 1.
CASES=()
for n in $(seq 1 31) 99 100 101; do CASES+=("$n"); done
for k in 1 2 3; do p=$((10 ** k)); CASES+=("$((p + 1)) $((p > 301 ? p - 301 : 1))"); done
for k in 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18; do p=$((10 ** k)); CASES+=("$((p + 301)) $((p - 301))"); done
CASES+=("4294967396 4294967196" "1000000000000001000 999999999999999000"
	"9999999999999999999 9999999999999998000" "9999999999999999999 9999999999999999999" "60 50" "10 11")
if slow_tier; then
	RUN_BUILDS="gcc-O2 gcc-O3 gcc-Os clang-O2 clang-O3 clang-Os"
	for k in 1 2 3 4 5 6 7; do p=$((10 ** k)); CASES+=("$((p - 1))" "$p" "$((p + 1))"); done
fi

variant_field() { # VARIANT FIELD: one item per line
	jq -r --arg v "$1" --arg f "$2" '.variants[] | select(.name == $v) | .[$f][]' "$FAMILY_JSON"
}

# the first requires_cpu flag of VARIANT that /proc/cpuinfo does not list
missing_cpu_flag() {
	local have f
	have=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
	for f in $(variant_field "$1" requires_cpu); do
		case "$have" in *" $f "*) ;; *) echo "$f"; return 0 ;; esac
	done
	return 1
}

setup_file() {
	export BIN="$BATS_FILE_TMPDIR/bin"
	mkdir -p "$BIN"
	# one line per build: OUTPUT COMPILER FLAGS... SOURCE; a build's log holds
	# its diagnostics, and is not empty when it failed
	cat >"$BIN/compile.sh" <<-'EOF'
		out="$1"; shift
		"$@" -o "$out" 2>"$out.log" || echo "exit status $?" >>"$out.log"
	EOF
	local v cc o
	for v in $(jq -r '.variants[].name' "$FAMILY_JSON"); do
		for cc in $CCS; do
			command -v "$cc" >/dev/null || continue # check_variant skips with the reason
			for o in -O2 -O3 -Os; do
				# the fast tier builds what it runs, and every variant with both compilers
				case " $RUN_BUILDS " in *" $cc$o "*) ;; *) continue ;; esac
				echo "$BIN/$v-$cc$o $cc $o -std=c11 -Wall -Wextra -Werror" \
					$(variant_field "$v" requires_flags) "$FAMILY_DIR/$v.c"
			done
		done
	done | xargs -P "$(nproc)" -L 1 sh "$BIN/compile.sh"
}

# VARIANT BUILD: whether BUILD (gcc-O2) of VARIANT runs the cases.  The slow
# tier runs every build; the fast tier builds both but runs one a variant,
# the compilers taken in turn down family.json's list (gcc-O2 for the
# first), so each compiler's code is proven on half the variants every push
# and on all of them every night.
runs_cases() {
	slow_tier && return 0
	local i
	i=$(jq -r --arg v "$1" '[.variants[].name] | index($v)' "$FAMILY_JSON")
	if [ $((i % 2)) -eq 0 ]; then [ "$2" = gcc-O2 ]; else [ "$2" = clang-O3 ]; fi
}

# VARIANT: every build of it must exist, have compiled silently and pass every case
check_variant() {
	local v="$1" missing="" nocc="" cc o bin c fails=0
	missing=$(missing_cpu_flag "$v") || true
	# a case fails when either side of its pipe does; set here, not in a
	# subshell per case (a thousand cases: the forks are a fifth of the time)
	local -
	set -o pipefail
	for cc in $CCS; do
		if ! command -v "$cc" >/dev/null; then
			nocc="$nocc $cc"
			continue
		fi
		for o in -O2 -O3 -Os; do
			case " $RUN_BUILDS " in *" $cc$o "*) ;; *) continue ;; esac
			bin="$BIN/$v-$cc$o"
			# every variant is built everywhere: building needs no such cpu
			if [ -s "$bin.log" ] || [ ! -x "$bin" ]; then
				echo "$v with $cc $o did not build warning-free:"
				cat "$bin.log"
				fails=$((fails + 1))
				continue
			fi
			[ -z "$missing" ] || continue
			runs_cases "$v" "$cc$o" || continue
			for c in "${CASES[@]}"; do
				# shellcheck disable=SC2086 # c is "N" or "N START"
				if ! { "$bin" $c | "$CHECKER" check fizzbuzz $c; } 2>"$BATS_TEST_TMPDIR/err"; then
					echo "$v ($cc $o) $c: $(cat "$BATS_TEST_TMPDIR/err")"
					fails=$((fails + 1))
				fi
				[ "$fails" -lt 10 ] || return 1
			done
		done
	done
	[ "$fails" -eq 0 ]
	[ -z "$missing" ] || skip "built warning-free; this CPU lacks $missing to run it"
	[ -z "$nocc" ] || skip "not installed:$nocc (scripts/deps.sh installs it)"
}

@test "fizzbuzz: family.json lists exactly the variant sources, and they agree on the default size" {
	local listed files size v
	listed=$(jq -r '.variants[].name' "$FAMILY_JSON" | sort | tr '\n' ' ')
	files=$(cd "$FAMILY_DIR" && ls ./*.c | sed 's|^\./||; s|\.c$||' | sort | tr '\n' ' ')
	[ "$listed" = "$files" ]
	size=$(jq -r '.default_size' "$FAMILY_JSON")
	for v in $(jq -r '.variants[].name' "$FAMILY_JSON"); do
		grep -q "^#define DEFAULT_N ${size}ULL" "$FAMILY_DIR/$v.c"
	done
	[ "$(jq -r '.check' "$FAMILY_JSON")" = fizzbuzz ]
}

@test "fizzbuzz/simple: every build right at every boundary" { check_variant simple; }
@test "fizzbuzz/base: every build right at every boundary" { check_variant base; }
@test "fizzbuzz/batch30: every build right at every boundary" { check_variant batch30; }
@test "fizzbuzz/offset: every build right at every boundary" { check_variant offset; }
@test "fizzbuzz/div10: every build right at every boundary" { check_variant div10; }
@test "fizzbuzz/sse: every build right at every boundary" { check_variant sse; }
@test "fizzbuzz/avx2: every build right at every boundary" { check_variant avx2; }
@test "fizzbuzz/avx512: every build right at every boundary" { check_variant avx512; }

@test "fizzbuzz: a bad argument gets a usage message and exit 2" {
	local v bad
	for v in $(jq -r '.variants[].name' "$FAMILY_JSON"); do
		missing_cpu_flag "$v" >/dev/null && continue
		for bad in x -1 1e3 10000000000000000000 "10 0" "10 x" "1 2 3"; do
			# shellcheck disable=SC2086 # split "N START"
			run -2 "$BIN/$v-gcc-O2" $bad
			[[ "$output" == *"usage: "* ]]
		done
		run -2 "$BIN/$v-gcc-O2" ""
		[[ "$output" == *"usage: "* ]]
		[ -z "$("$BIN/$v-gcc-O2" 0)" ]
		[ -z "$("$BIN/$v-gcc-O2" 10 11)" ]
	done
}

@test "fizzbuzz: without a pipe the output goes through write(), into a file or /dev/null" {
	local v
	for v in $(jq -r '.variants[].name' "$FAMILY_JSON"); do
		missing_cpu_flag "$v" >/dev/null && continue
		"$BIN/$v-gcc-O2" 3000000 >"$BATS_TEST_TMPDIR/out"
		"$CHECKER" check fizzbuzz 3000000 <"$BATS_TEST_TMPDIR/out"
		"$BIN/$v-gcc-O2" 3000000 >/dev/null
	done
}

@test "fizzbuzz: a slow reader that takes a few hundred bytes at a time still gets the exact stream" {
	local v
	for v in $(jq -r '.variants[].name' "$FAMILY_JSON"); do
		missing_cpu_flag "$v" >/dev/null && continue
		# several 1 MiB chunks, so each vmsplice() buffer is reused while the reader lags
		"$BIN/$v-clang-O3" 1000000 | dd bs=777 status=none | "$CHECKER" check fizzbuzz 1000000
	done
}

@test "fizzbuzz: the checker names the first wrong line of a damaged stream" {
	run -1 bash -c "'$BIN/base-gcc-O2' 1000 | sed 's/^347\$/348/' | '$FLAGBENCH' check fizzbuzz 1000"
	[[ "$output" == *'line 347 differs'*'expected "347\n", received "348\n"'* ]]
	run -1 bash -c "'$BIN/base-gcc-O2' 1001 | '$FLAGBENCH' check fizzbuzz 1000"
	[[ "$output" == *'extra output after line 1000'* ]]
	run -1 bash -c "'$BIN/base-gcc-O2' 999 | '$FLAGBENCH' check fizzbuzz 1000"
	[[ "$output" == *'line 1000 ("Buzz\n") is missing'* ]]
	run -2 "$FLAGBENCH" check fizzbuzz 10 0 </dev/null
	[[ "$output" == *'START'* ]]
}
