#!/usr/bin/env bash
# fetch-ptxas.sh: fetches CUDA 11.8's standalone ptxas from Debian's non-free
# section (package nvidia-cuda-toolkit) into a cache folder, without installing
# the toolkit and without touching the system's apt configuration.
#
# It writes a private deb822 sources file that reuses the URIs, Suites and
# Signed-By of the machine's Debian sources with "Components: contrib non-free",
# keeps apt's lists, cache and state in a private temporary folder, downloads
# the one package that ships usr/bin/ptxas, unpacks it with dpkg-deb and keeps
# only that binary at
#
#   ${FUSEFLOW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fuseflow}/cuda-11.8/ptxas
#
# On success it prints that path and nothing else. When a cached binary is
# already there and runs, it only prints the path. Root is not needed.
#
# Environment:
#   FUSEFLOW_CACHE        cache root (default: $XDG_CACHE_HOME/fuseflow)
#   FUSEFLOW_PTXAS_SUITES space-separated suites to use instead of the
#                         machine's (for example "bookworm" on a newer release)
set -euo pipefail

readonly PKG=nvidia-cuda-toolkit
readonly CUDA_VERSION=11.8
readonly DEBIAN_KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

die() {
	printf 'fetch-ptxas: %s\n' "$*" >&2
	exit 1
}

cache_root=${FUSEFLOW_CACHE:-${XDG_CACHE_HOME:-${HOME:?HOME is not set}/.cache}/fuseflow}
cache_dir=$cache_root/cuda-$CUDA_VERSION
target=$cache_dir/ptxas

runs() { "$1" --version >/dev/null 2>&1; }

if [[ -x $target ]] && runs "$target"; then
	printf '%s\n' "$target"
	exit 0
fi

for tool in apt-get apt-cache dpkg dpkg-deb awk; do
	command -v "$tool" >/dev/null 2>&1 || die "$tool not found: this script needs a Debian-based system with apt"
done

mkdir -p "$cache_dir" || die "cannot create cache folder $cache_dir"

# One fetch at a time per cache folder; a second caller waits, then finds the
# binary in place.
if command -v flock >/dev/null 2>&1; then
	exec 9>"$cache_dir/.lock"
	flock 9
	if [[ -x $target ]] && runs "$target"; then
		printf '%s\n' "$target"
		exit 0
	fi
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/fuseflow-ptxas.XXXXXX") || die "cannot create a temporary folder"
trap 'rm -rf "$work"' EXIT
log=$work/log
: >"$log"

fail() {
	printf 'fetch-ptxas: %s\n' "$*" >&2
	if [[ -s $log ]]; then
		printf 'fetch-ptxas: output of the failed step:\n' >&2
		sed 's/^/  /' "$log" >&2
	fi
	exit 1
}

# debian_sources prints one line per Debian "deb" source of this machine:
#   URI<TAB>SUITE[ SUITE...]<TAB>SIGNED-BY
# SIGNED-BY is a keyring path, or empty for apt's trusted keys. Both the deb822
# (*.sources) and the one-line (sources.list, *.list) formats are read, from
# where apt-config says they are (/etc/apt by default). A
# source counts as Debian's when its URI path is .../debian or
# .../debian-security (also snapshot archives) or it is signed by Debian's
# archive keyring; disabled sources and deb-src lines are ignored.
debian_sources() {
	local f sl=/etc/apt/sources.list sp=/etc/apt/sources.list.d/
	# Where this machine's apt keeps its sources (normally the paths above).
	eval "$(apt-config shell sl Dir::Etc::sourcelist/f sp Dir::Etc::sourceparts/d 2>/dev/null)"
	shopt -s nullglob
	for f in "$sp"*.sources; do
		awk -v keyring="$DEBIAN_KEYRING" '
			function flush() {
				if (types ~ /(^|[ \t])deb([ \t]|$)/ && enabled !~ /^(no|false|0)$/ && uris != "" && suites != "") {
					n = split(uris, u, /[ \t]+/)
					for (i = 1; i <= n; i++) if (u[i] != "") emit(u[i], suites, signed)
				}
				types = ""; uris = ""; suites = ""; signed = ""; enabled = ""; field = ""
			}
			function emit(uri, s, k) {
				if (k ~ /BEGIN PGP/) k = ""   # an inline key cannot be reused by path
				if (uri ~ /\/debian(-security)?\/?$/ || uri ~ /\/archive\/debian(-security)?\// || k == keyring)
					printf "%s\t%s\t%s\n", uri, s, k
			}
			/^[ \t]*#/ { next }
			/^[ \t]*$/ { flush(); next }
			/^[ \t]/ { if (field == "signed-by") signed = signed "\n" $0; next }
			{
				i = index($0, ":"); if (i == 0) next
				field = tolower(substr($0, 1, i - 1)); v = substr($0, i + 1)
				gsub(/^[ \t]+|[ \t]+$/, "", v)
				if (field == "types") types = v
				else if (field == "uris") uris = v
				else if (field == "suites") suites = v
				else if (field == "signed-by") signed = v
				else if (field == "enabled") enabled = tolower(v)
			}
			END { flush() }
		' "$f"
	done
	for f in "$sl" "$sp"*.list; do
		[[ -f $f ]] || continue
		awk -v keyring="$DEBIAN_KEYRING" '
			/^[ \t]*deb[ \t]/ {
				line = $0; sub(/#.*/, "", line)
				signed = ""
				if (match(line, /\[[^]]*\]/)) {
					opts = substr(line, RSTART + 1, RLENGTH - 2)
					line = substr(line, 1, RSTART - 1) " " substr(line, RSTART + RLENGTH)
					n = split(opts, o, /[ \t]+/)
					for (i = 1; i <= n; i++) if (o[i] ~ /^signed-by=/) signed = substr(o[i], 11)
				}
				n = split(line, w, /[ \t]+/)
				k = 0
				for (i = 1; i <= n; i++) if (w[i] != "") f[++k] = w[i]
				if (k < 3) next
				uri = f[2]; suite = f[3]
				if (uri ~ /\/debian(-security)?\/?$/ || uri ~ /\/archive\/debian(-security)?\// || signed == keyring)
					printf "%s\t%s\t%s\n", uri, suite, signed
			}
		' "$f"
	done
}

mapfile -t sources < <(debian_sources | awk -F '\t' '!seen[$0]++')
if [[ ${#sources[@]} -eq 0 ]]; then
	# No Debian source found: fall back to the main archive for this release.
	# shellcheck disable=SC1091
	codename=$(. /etc/os-release 2>/dev/null && printf '%s' "${VERSION_CODENAME:-}")
	[[ -n $codename ]] || die "no Debian apt source found in /etc/apt and no VERSION_CODENAME in /etc/os-release"
	sources=("http://deb.debian.org/debian	$codename	$([[ -f $DEBIAN_KEYRING ]] && printf '%s' "$DEBIAN_KEYRING")")
fi

arch=$(dpkg --print-architecture)
mkdir -p "$work/sources.d" "$work/empty" "$work/lists/partial" "$work/cache/archives/partial" \
	"$work/state" "$work/deb" "$work/root"
: >"$work/status"
srcfile=$work/sources.d/fuseflow-ptxas.sources
srcdesc=
for s in "${sources[@]}"; do
	IFS=$'\t' read -r uri suites signed <<<"$s"
	[[ -n ${FUSEFLOW_PTXAS_SUITES:-} ]] && suites=$FUSEFLOW_PTXAS_SUITES
	srcdesc+="${srcdesc:+, }$uri ($suites)"
	{
		printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: contrib non-free\n' "$uri" "$suites"
		printf 'Architectures: %s\nTargets: Packages\n' "$arch"
		[[ -n $signed ]] && printf 'Signed-By: %s\n' "$signed"
		printf '\n'
	} >>"$srcfile"
done

apt_opts=(
	-o "Dir::Etc::SourceList=/dev/null"
	-o "Dir::Etc::SourceParts=$work/sources.d"
	-o "Dir::Etc::Preferences=/dev/null"
	-o "Dir::Etc::PreferencesParts=$work/empty"
	-o "Dir::State=$work/state"
	-o "Dir::State::Lists=$work/lists"
	-o "Dir::State::status=$work/status"
	-o "Dir::Cache=$work/cache"
	-o "Dir::Cache::archives=$work/cache/archives"
	-o "Dir::Cache::pkgcache="
	-o "Dir::Cache::srcpkgcache="
	-o "APT::Update::Post-Invoke="
	-o "APT::Update::Post-Invoke-Success="
	-o "Acquire::Languages=none"
	-o "APT::Architectures=$arch"
	-o "APT::Get::List-Cleanup=false"
)
# As root apt downloads as the unprivileged _apt user, who cannot reach a
# private folder under root's home; these files are ours, so keep root.
if [[ $(id -u) -eq 0 ]]; then
	apt_opts+=(-o "APT::Sandbox::User=root")
fi

if ! apt-get -q "${apt_opts[@]}" update >"$log" 2>&1; then
	fail "apt-get update of the private non-free sources failed for $srcdesc"
fi
# apt-get update exits 0 even when a source could not be fetched.
if grep -qE '^(E:|W: Failed to fetch)' "$log"; then
	fail "apt-get update of the private non-free sources reported errors for $srcdesc"
fi

if ! apt-cache "${apt_opts[@]}" madison "$PKG" >"$log" 2>&1; then
	fail "apt-cache madison $PKG failed"
fi
version=$(awk -F '|' -v want="$CUDA_VERSION" '
	{ v = $2; gsub(/[ \t]/, "", v) }
	index(v, want ".") == 1 || index(v, want "~") == 1 || v ~ ("~" want "[.~]") { print v; exit }
' "$log")
if [[ -z $version ]]; then
	fail "no $PKG $CUDA_VERSION for $arch in non-free of $srcdesc (on a newer Debian release, set FUSEFLOW_PTXAS_SUITES=bookworm)"
fi

if ! (cd "$work/deb" && apt-get -q "${apt_opts[@]}" download "$PKG=$version") >"$log" 2>&1; then
	fail "apt-get download $PKG=$version failed"
fi
debs=("$work"/deb/*.deb)
[[ -f ${debs[0]} ]] || fail "apt-get download $PKG=$version left no .deb file"

if ! dpkg-deb -x "${debs[0]}" "$work/root" >"$log" 2>&1; then
	fail "dpkg-deb -x $(basename "${debs[0]}") failed"
fi
[[ -f $work/root/usr/bin/ptxas ]] || fail "$(basename "${debs[0]}") has no usr/bin/ptxas"
: >"$log"

tmp=$cache_dir/.ptxas.$$
install -m 0755 "$work/root/usr/bin/ptxas" "$tmp" || fail "cannot write $tmp"
if ! "$tmp" --version >"$log" 2>&1; then
	rm -f "$tmp"
	fail "the fetched ptxas does not run on this machine"
fi
mv -f "$tmp" "$target" || fail "cannot move ptxas into $target"
printf '%s\n' "$target"
