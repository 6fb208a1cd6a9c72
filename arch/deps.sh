#!/usr/bin/env bash
# arch/deps.sh - `make deps`: everything a fresh Debian 12 machine needs to
# build and test DPM, installed idempotently in three pieces:
#   packages  the Debian packages below (only the missing ones)
#   lwip      lwIP's source from Debian's source package, at $BUILD/deps/lwip
#   newlib    newlib built for i386 from Debian's newlib-source, installed
#             under $BUILD/deps/newlib-i386/i686-elf/{include,lib}
# Each piece is skipped when already complete: packages are asked of dpkg,
# lwip and newlib have a stamp under $BUILD/deps/stamps holding what they were
# made from, written only after success, so an interrupted or changed piece
# is redone.  Long output goes to $BUILD/deps/logs/PIECE.log; the terminal
# gets one line per piece.  docs/building.md explains the choices.
set -eEuo pipefail
trap 'echo "deps: error: line $LINENO: \"$BASH_COMMAND\" failed" >&2' ERR

# The Debian packages the project needs (installed without Recommends, so
# everything used directly is listed, e.g. libc6-dev, which gcc only
# recommends).
DEBIAN_PACKAGES=(
	make gcc libc6-dev binutils gcc-multilib    # host tools, `gcc -m32`
	libcmocka-dev libedit-dev                   # unit tests, dpm's shell
	zlib1g-dev                                  # crc32: the log's block checksums
	qemu-system-x86 qemu-system-arm vde2        # guests and their network
	gcc-arm-none-eabi libnewlib-arm-none-eabi   # ARM guests
	newlib-source xz-utils                      # newlib for i386 (below)
	dpkg-dev                                    # apt-get source (lwip)
	gnuplot-nox graphviz                        # analysis plots and graphs
	bc procps                                   # bench-analysis.sh; ps, pgrep in cluster tests
	nettle-dev                                  # HMAC-SHA1 of node authentication (host side)
	clang libclang-rt-14-dev                    # fuzz harnesses: libFuzzer, clang's sanitizers
	babeltrace2 libbabeltrace2-dev              # CTF export: its reader in the tests
	libotf2-trace-dev otf2-tools                # OTF2 export: the library and otf2-print
	chromium                                    # the report's page checked in a headless browser
)

LWIP_SOURCE_PACKAGE=lwip
LWIP_VERSION=2.1.3

# newlib for i386: sizes chosen for a tiny single-threaded OS.  Float
# printf stays in (no nano formatted I/O); %lld and C99 formats (%zu, %jd,
# PRIu64) are enabled because meter counters are 64-bit.
NEWLIB_OPTIONS=(
	--disable-newlib-supplied-syscalls
	--disable-multilib
	--disable-nls
	--disable-newlib-multithread
	--enable-newlib-nano-malloc
	--enable-newlib-reent-small
	--disable-newlib-atexit-dynamic-alloc
	--enable-newlib-io-long-long
	--enable-newlib-io-c99-formats
)
NEWLIB_TARGET=i686-elf
NEWLIB_CFLAGS="-g0 -O2"

usage() {
	cat <<-EOF
	usage: bash arch/deps.sh [--help]
	Installs the Debian packages DPM needs, fetches lwIP $LWIP_VERSION into
	\$BUILD/deps/lwip and builds newlib for i386 into \$BUILD/deps/newlib-i386.
	Pieces already complete are skipped.  BUILD defaults to "build".
	EOF
}

die() { echo "deps: error: $*" >&2; exit 1; }
say() { printf 'deps: %-9s %s\n' "$1" "$2"; }

# run_logged LOG WHAT CMD...: run CMD with its output appended to LOG; on
# failure show the end of LOG and stop.
run_logged() {
	local log=$1 what=$2; shift 2
	if ! "$@" >>"$log" 2>&1; then
		tail -n 25 "$log" >&2
		die "$what failed (full log: $log)"
	fi
}

# ---- stamps ---------------------------------------------------------------
stamp_file()    { echo "$STAMPS/$1"; }
stamp_matches() { [ -f "$(stamp_file "$1")" ] && [ "$(cat "$(stamp_file "$1")")" = "$2" ]; }
stamp_write()   { printf '%s\n' "$2" > "$(stamp_file "$1")"; }
stamp_clear()   { rm -f "$(stamp_file "$1")"; }

# ---- packages -------------------------------------------------------------
missing_packages() {
	local installed p
	installed=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' \
		"${DEBIAN_PACKAGES[@]}" 2>/dev/null | awk '$1 == "ii" { print $2 }') || true
	for p in "${DEBIAN_PACKAGES[@]}"; do
		grep -qxF "$p" <<<"$installed" || echo "$p"
	done
}

ensure_packages() {
	local missing log=$LOGS/packages.log
	missing=$(missing_packages)
	if [ -z "$missing" ]; then
		say packages "ok (cached)"
		return
	fi
	# shellcheck disable=SC2086 # one package name a word
	set -- $missing
	[ "$(id -u)" -eq 0 ] ||
		die "missing Debian packages: $*; run as root or: apt-get install $*"
	say packages "installing $*"
	: > "$log"
	export DEBIAN_FRONTEND=noninteractive
	run_logged "$log" "apt-get update" apt-get update
	run_logged "$log" "apt-get install" \
		apt-get install -y --no-install-recommends "$@"
	missing=$(missing_packages)
	[ -z "$missing" ] || die "still missing after install: $missing (log: $log)"
}

# ---- lwip -----------------------------------------------------------------
# A deb-src copy of the machine's own Debian sources, in a private apt
# directory, so apt-get source works without touching the system's apt state.
write_private_sources() {
	local parts=$1
	rm -rf "$parts" && mkdir -p "$parts"
	if [ -r /etc/apt/sources.list.d/debian.sources ]; then
		sed -E 's/^Types:.*$/Types: deb-src/I' \
			/etc/apt/sources.list.d/debian.sources > "$parts/debian.sources"
		grep -qi '^URIs:' "$parts/debian.sources" ||
			die "no URIs in /etc/apt/sources.list.d/debian.sources"
	elif [ -r /etc/apt/sources.list ]; then
		sed -nE 's/^[[:space:]]*deb([[:space:]])/deb-src\1/p' /etc/apt/sources.list |
			awk '!seen[$0]++' > "$parts/debian.list"
		[ -s "$parts/debian.list" ] || die "no 'deb' line in /etc/apt/sources.list"
	else
		die "no Debian apt sources found (/etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list)"
	fi
}

# apt-get / apt-cache with the private sources, lists and caches.
private_apt() {
	local tool=$1; shift
	"$tool" -o Dir::Etc::SourceList=/dev/null \
		-o Dir::Etc::SourceParts="$APT_DIR/sources.list.d" \
		-o Dir::State::Lists="$APT_DIR/lists" \
		-o Dir::Cache="$APT_DIR/cache" \
		-o Acquire::Languages=none "$@"
}

# Every Debian version of the lwIP source package the private lists offer.
lwip_versions_offered() {
	private_apt apt-cache showsrc --only-source "$LWIP_SOURCE_PACKAGE" |
		sed -n 's/^Version: //p' | sort -uV
}

# The newest of VERSIONS whose upstream part is $LWIP_VERSION (Debian
# versions look like 2.1.3+dfsg1-2).
pick_lwip_version() {
	awk -v want="$LWIP_VERSION" '{ v = $0; sub(/^[0-9]+:/, "", v); sub(/[-+~].*$/, "", v); if (v == want) print }' <<<"$1" |
		tail -n 1
}

# The version lwIP's own header declares, e.g. "2.1.3".
lwip_tree_version() {
	awk '/#define LWIP_VERSION_(MAJOR|MINOR|REVISION)[[:space:]]/ { v[$2] = $3 + 0 }
	     END { printf "%s.%s.%s\n", v["LWIP_VERSION_MAJOR"], v["LWIP_VERSION_MINOR"], v["LWIP_VERSION_REVISION"] }' \
		"$1/src/include/lwip/init.h"
}

lwip_complete() {
	[ -d "$LWIP_DIR/src/core" ] && [ -d "$LWIP_DIR/src/include/lwip" ]
}

ensure_lwip() {
	local key="$LWIP_SOURCE_PACKAGE $LWIP_VERSION" log=$LOGS/lwip.log
	local fetch=$DEPS/lwip-fetch offered version tree
	if stamp_matches lwip "$key" && lwip_complete; then
		say lwip "ok (cached)"
		return
	fi
	say lwip "fetching Debian source package $LWIP_SOURCE_PACKAGE $LWIP_VERSION"
	stamp_clear lwip
	rm -rf "$LWIP_DIR" "$fetch"
	: > "$log"
	write_private_sources "$APT_DIR/sources.list.d"
	mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial" "$fetch"
	# apt downloads as the unprivileged _apt user when it may write there.
	if [ "$(id -u)" -eq 0 ] && id _apt >/dev/null 2>&1; then
		chown _apt "$fetch"
	fi
	run_logged "$log" "apt-get update (private deb-src lists)" \
		private_apt apt-get update
	offered=$(lwip_versions_offered) ||
		die "apt-cache showsrc $LWIP_SOURCE_PACKAGE failed (log: $log)"
	version=$(pick_lwip_version "$offered")
	[ -n "$version" ] ||
		die "Debian offers $LWIP_SOURCE_PACKAGE ${offered:-in no version}, not $LWIP_VERSION"
	cd "$fetch"    # apt-get source unpacks into the current directory
	run_logged "$log" "apt-get source $LWIP_SOURCE_PACKAGE=$version" \
		private_apt apt-get source "$LWIP_SOURCE_PACKAGE=$version"
	cd "$DEPS"
	tree=$(find "$fetch" -mindepth 1 -maxdepth 1 -type d -name "$LWIP_SOURCE_PACKAGE-*" | head -n 1)
	if [ -z "$tree" ] || [ ! -r "$tree/src/include/lwip/init.h" ]; then
		die "apt-get source left no lwIP tree in $fetch (log: $log)"
	fi
	[ "$(lwip_tree_version "$tree")" = "$LWIP_VERSION" ] ||
		die "lwIP tree is version $(lwip_tree_version "$tree"), want $LWIP_VERSION"
	mv "$tree" "$LWIP_DIR"
	rm -rf "$fetch" "$APT_DIR"
	lwip_complete || die "lwIP tree in $LWIP_DIR lacks src/core or src/include"
	stamp_write lwip "$key"
	say lwip "done: $LWIP_DIR (Debian $version)"
}

# ---- newlib ---------------------------------------------------------------
newlib_tarball() {
	compgen -G '/usr/src/newlib*/newlib-*.tar.*' | sort -V | tail -n 1
}

newlib_cc_for_target() {
	echo "gcc -m32 -march=i686 -nostdinc -isystem $(gcc -m32 -print-file-name=include)" \
		"-U__linux__ -U__linux -Ulinux -U__gnu_linux__ -U__unix__ -U__unix -Uunix" \
		"-fno-pic -fno-pie -fno-stack-protector -Wa,--noexecstack"
}

newlib_complete() {
	local d=$NEWLIB_PREFIX/$NEWLIB_TARGET
	[ -f "$d/lib/libc.a" ] && [ -f "$d/lib/libm.a" ] && [ -f "$d/include/stdio.h" ]
}

# Symbols libc.a uses but does not define: the system calls (and the few
# libgcc helpers) a program linked with it must supply.
write_newlib_undefined() {
	local lib=$NEWLIB_PREFIX/$NEWLIB_TARGET/lib/libc.a
	comm -23 <(nm -u "$lib" | awk 'NF == 2 { print $2 }' | sort -u) \
		<(nm --defined-only "$lib" | awk 'NF == 3 { print $3 }' | sort -u) \
		> "$NEWLIB_PREFIX/undefined-symbols.txt"
}

build_newlib() {
	local tarball=$1 cc=$2 log=$3
	local src=$DEPS/newlib-src obj=$DEPS/newlib-obj
	rm -rf "$src" "$obj" "$NEWLIB_PREFIX"
	mkdir -p "$src" "$obj"
	run_logged "$log" "unpacking $tarball" tar -xf "$tarball" -C "$src" --strip-components=1
	# Run as its own make, not as part of the caller's (no jobserver).
	unset MAKEFLAGS MFLAGS MAKELEVEL
	run_logged "$log" "newlib configure" \
		env -C "$obj" "$src/configure" --target="$NEWLIB_TARGET" --prefix="$NEWLIB_PREFIX" \
		"${NEWLIB_OPTIONS[@]}" \
		CC_FOR_TARGET="$cc" CFLAGS_FOR_TARGET="$NEWLIB_CFLAGS" \
		AR_FOR_TARGET=ar AS_FOR_TARGET="as --32" LD_FOR_TARGET="ld -m elf_i386" \
		RANLIB_FOR_TARGET=ranlib NM_FOR_TARGET=nm MAKEINFO=true
	run_logged "$log" "newlib build" make -C "$obj" -j2 all-target-newlib MAKEINFO=true
	run_logged "$log" "newlib install" make -C "$obj" install-target-newlib MAKEINFO=true
	rm -rf "$src" "$obj"
}

ensure_newlib() {
	local tarball cc key log=$LOGS/newlib.log start
	tarball=$(newlib_tarball) || true
	[ -n "$tarball" ] || die "no newlib tarball under /usr/src (package newlib-source)"
	cc=$(newlib_cc_for_target)
	key="$(basename "$tarball") $cc $NEWLIB_CFLAGS ${NEWLIB_OPTIONS[*]}"
	if stamp_matches newlib "$key" && newlib_complete; then
		say newlib "ok (cached)"
		return
	fi
	say newlib "building $(basename "$tarball") for $NEWLIB_TARGET (about a minute)"
	stamp_clear newlib
	: > "$log"
	start=$SECONDS
	build_newlib "$tarball" "$cc" "$log"
	newlib_complete || die "newlib install lacks libc.a, libm.a or stdio.h under $NEWLIB_PREFIX/$NEWLIB_TARGET (log: $log)"
	write_newlib_undefined
	stamp_write newlib "$key"
	say newlib "done in $((SECONDS - start)) s: $NEWLIB_PREFIX/$NEWLIB_TARGET/{include,lib}"
}

# ---- main -----------------------------------------------------------------
main() {
	case "${1:-}" in
	"") ;;
	-h|--help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
	DEPS=$(realpath -m "${BUILD:-build}/deps")
	STAMPS=$DEPS/stamps LOGS=$DEPS/logs APT_DIR=$DEPS/apt
	LWIP_DIR=$DEPS/lwip NEWLIB_PREFIX=$DEPS/newlib-i386
	mkdir -p "$STAMPS" "$LOGS"
	# One run at a time: two builds of the same tree would clobber each other.
	exec 9>"$DEPS/.lock"
	flock -n 9 || { say lock "waiting for another deps run to finish"; flock 9; }
	ensure_packages
	ensure_lwip
	ensure_newlib
}

main "$@"
